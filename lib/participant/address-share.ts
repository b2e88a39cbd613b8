/**
 * How much of a study one network address (an IPv6 client's /64) may hold at once: its participants' live main-block
 * reservations may not exceed ADDRESS_SHARE of the study's open slots (items × k not yet answered), but one
 * participant's worth is always allowed. misi_start_participant (sql/functions) applies
 * this rule with the open slots it counts at the start; this module states it for the study page and the tests. Without it, 20
 * consents from one address reserve every slot of a small study (2 tasks × 4 items, k = 5) for the assignment timeout.
 */
export const ADDRESS_SHARE = 0.2;

/** Participants who do not answer within this window after consent release their reservation (answering renews it). */
export const FIRST_ANSWER_WINDOW_MIN = 10;

/** Main-block slots one address may hold at once. */
export function addressSlotCap(openSlots: number, slotsPerParticipant: number, share: number = ADDRESS_SHARE): number {
  return Math.max(slotsPerParticipant, Math.floor(share * openSlots));
}

/** Participants one address can have in progress at once in a study with `openSlots` open slots. */
export function participantsPerAddress(
  openSlots: number,
  slotsPerParticipant: number,
  share: number = ADDRESS_SHARE,
): number {
  if (slotsPerParticipant <= 0) return 0;
  return Math.floor(addressSlotCap(openSlots, slotsPerParticipant, share) / slotsPerParticipant);
}

/** Minutes an assignment is reserved at the start: the first-answer window, never longer than the study's timeout. */
export function initialReservationMin(assignmentTimeoutMin: number): number {
  return Math.min(FIRST_ANSWER_WINDOW_MIN, assignmentTimeoutMin);
}

/**
 * The study page's notice for a study too small for the per-address limits: null when one address can run as many
 * participants at once as the join limit lets it start (`perAddressJoinLimit`, sized for a lab behind one address).
 */
export function smallStudyNotice(options: {
  openSlots: number;
  slotsPerParticipant: number;
  perAddressJoinLimit: number;
  share?: number;
}): string | null {
  const n = participantsPerAddress(options.openSlots, options.slotsPerParticipant, options.share);
  if (n >= options.perAddressJoinLimit) return null;
  const pct = Math.round((options.share ?? ADDRESS_SHARE) * 100);
  return (
    `This study is small for the per-address limits: one network address (a lab or household sharing a connection) can have at most ` +
    `${n} participant${n === 1 ? "" : "s"} in progress at once (${pct}% of its ${options.openSlots} open item slots, ${options.slotsPerParticipant} per participant); ` +
    `others from that address are asked to try again later. Participants on their own connections are not affected.`
  );
}
