"use client";

import { useEffect, useRef, useState } from "react";
import { estimateServerOffsetMs, secondsLeft, TIMEOUT_SUBMIT_MARGIN_MS } from "@/lib/question-clock";
import { participantApi } from "./participant-api-client";

/** Seconds left (null without a limit), and whether the "shown" call has settled (succeeded, or failed for good). */
export interface QuestionClock {
  remaining: number | null;
  /**
   * In a timed study the server serves the question's images and 3D scene only after it stamped the question shown
   * (lib/server/participant-flow/question-content-gate.ts): request them only once this is true.
   */
  reported: "pending" | "ok" | "failed";
}

/**
 * In a timed study: tells the server the question is on screen (it stamps the moment once) and runs the countdown on
 * the server's clock. An untimed study makes no request here: the answer's rtClientMs places the display on the
 * server (record-response.ts, displayedAtOf), one round trip per question fewer. Calls onExpire once, a margin after the server's deadline. A reload gets the
 * same deadline back, so the time keeps running. If the server cannot be reached the countdown runs
 * from the local mount time; the server still decides.
 */
export function useQuestionClock({
  assignmentId,
  timeLimitSec,
  onExpire,
}: {
  assignmentId: string;
  timeLimitSec: number | null;
  onExpire: () => void;
}): QuestionClock {
  const [remaining, setRemaining] = useState<number | null>(null);
  // Untimed: nothing to report (the answer carries the question's display time, #31) and nothing gated on it.
  const [reported, setReported] = useState<QuestionClock["reported"]>(timeLimitSec === null ? "ok" : "pending");
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  });

  useEffect(() => {
    if (timeLimitSec === null) return;
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const mountedAt = Date.now();
    void participantApi.shown({ assignmentId }).then((shown) => {
      if (cancelled) return;
      setReported(shown ? "ok" : "failed");
      const deadline = shown?.body.deadline ? Date.parse(shown.body.deadline) : mountedAt + timeLimitSec * 1000;
      const offset = shown ? estimateServerOffsetMs(Date.parse(shown.body.serverNow), shown.t0, shown.t1) : 0;
      let fired = false;
      const tick = () => {
        const now = Date.now();
        setRemaining(secondsLeft(deadline, now, offset));
        if (!fired && now + offset >= deadline + TIMEOUT_SUBMIT_MARGIN_MS) {
          fired = true;
          clearInterval(timer);
          expire.current();
        }
      };
      tick();
      if (!fired) timer = setInterval(tick, 250);
    });
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [assignmentId, timeLimitSec]);

  return { remaining, reported };
}
