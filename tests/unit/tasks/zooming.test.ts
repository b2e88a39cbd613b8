import { describe, expect, it } from "vitest";
import { zoomingTask as task } from "@/lib/tasks/zooming";

describe("T3 zooming grammar", () => {
  it.each([
    ["move z 40", "move z 40"],
    ["Move Z +60.", "move z 60"],
    ["move  z 52.0", "move z 52"],
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (parsed.ok) expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  it("round-trips all 21 distances", () => {
    for (let distanceA = 40; distanceA <= 60; distanceA++) {
      expect(task.parseAnswer(task.canonicalize({ distanceA }))).toEqual({
        ok: true,
        value: { distanceA },
        canonical: `move z ${distanceA}`,
      });
    }
  });

  it.each([
    ["", "the answer is empty: expected 'move z <distance>' — e.g. 'move z 40'"],
    ["zoom z 40", "expected 'move' at the start, got 'zoom' — e.g. 'move z 40'"],
    ["move x 40", "expected an axis z after 'move', got 'x' — e.g. 'move z 40'"],
    ["move z 39", "the distance 39 is out of range: expected a whole number from 40 to 60 Å — e.g. 'move z 40'"],
    ["move z -50", "the distance -50 is out of range: expected a whole number from 40 to 60 Å — e.g. 'move z 40'"],
    ["move z 61", "the distance 61 is out of range: expected a whole number from 40 to 60 Å — e.g. 'move z 40'"],
    ["move z 40.5", "the distance must be a whole number of Å, got 40.5 — e.g. 'move z 40'"],
    ["move z 40 closer", "unexpected 'closer' after 'move z 40': the answer is one command only — e.g. 'move z 40'"],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T3 zooming scoring (exact only)", () => {
  it("gives partial = exact", () => {
    expect(task.score({ distanceA: 50 }, { distanceA: 50 })).toEqual({ exact: 1, partial: 1 });
    expect(task.score({ distanceA: 51 }, { distanceA: 50 })).toEqual({ exact: 0, partial: 0 });
    expect(task.score({ distanceA: 40 }, { distanceA: 60 })).toEqual({ exact: 0, partial: 0 });
  });
});
