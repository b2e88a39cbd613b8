import { describe, expect, it } from "vitest";
import {
  addressSlotCap,
  initialReservationMin,
  participantsPerAddress,
  smallStudyNotice,
} from "@/lib/participant/address-share";

describe("per-address share", () => {
  it("20 % of the open slots, never less than one participant's worth", () => {
    // 2 tasks × 4 items × k = 5 = 40 slots, 8 per participant: 8 slots, one participant.
    expect(addressSlotCap(40, 8)).toBe(8);
    expect(participantsPerAddress(40, 8)).toBe(1);
    expect(addressSlotCap(10, 8)).toBe(8);
    // 9 tasks × 100 items × k = 10, 90 per participant: 1,800 slots, 20 participants.
    expect(participantsPerAddress(9000, 90)).toBe(20);
  });

  it("a study too small for the per-address limits says so; a large one does not", () => {
    expect(smallStudyNotice({ openSlots: 40, slotsPerParticipant: 8, perAddressJoinLimit: 20 })).toMatch(
      /at most 1 participant in progress at once \(20% of its 40 open item slots, 8 per participant\)/,
    );
    expect(smallStudyNotice({ openSlots: 9000, slotsPerParticipant: 90, perAddressJoinLimit: 20 })).toBeNull();
  });

  it("the first reservation lasts the first-answer window, never longer than the study's timeout", () => {
    expect(initialReservationMin(60)).toBe(10);
    expect(initialReservationMin(5)).toBe(5);
  });
});
