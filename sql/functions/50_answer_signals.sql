-- Stores the browser's integrity signals of one answered question, once (lib/server/participant-flow/record-signals.ts):
-- the first body that reaches the server after the answer is stored wins (ON CONFLICT DO NOTHING), so a retried submit
-- writes nothing new. The participant's row keeps the device of their first signalled answer and whether any answer
-- reported navigator.webdriver.
-- Hidden and unfocused time cannot exceed the time the question was open: both are capped at the answer's longer
-- response time (client or server measured) plus p_slack_ms, so a tampered body cannot claim a day of hidden time on a
-- five-second answer and dominate the totals (the cap, not the claim, is stored).
-- Called by the answer's own write (submit-write.sql, with the response it inserts) and, for a replayed submit, with
-- the stored response's times. Reads no table: the caller vouches that the assignment is answered and the
-- participant's, so it works inside the statement that inserts the response (which that statement cannot see).
-- The participant's row is written once, and again only when an answer first reports webdriver: an upsert on every
-- answer wrote a new row version per question (WAL, index entries, dead tuples on a table never vacuumed here), and
-- even a no-op ON CONFLICT DO UPDATE locks the row (a WAL record) for nothing.
CREATE OR REPLACE FUNCTION misi_store_answer_signals(
  p_assignment_id text, p_participant_id text, p_study_id text, p_signals jsonb, p_rt_client_ms int, p_rt_server_ms int, p_slack_ms int
) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_cap bigint := GREATEST(COALESCE(p_rt_client_ms, 0), COALESCE(p_rt_server_ms, 0))::bigint + p_slack_ms;
BEGIN
  INSERT INTO "AnswerSignals" ("assignmentId", "participantId", "studyId", signals)
  VALUES (p_assignment_id, p_participant_id, p_study_id,
          jsonb_set(jsonb_set(p_signals, '{hiddenMs}', to_jsonb(LEAST((p_signals->>'hiddenMs')::bigint, v_cap))),
                    '{blurMs}', to_jsonb(LEAST((p_signals->>'blurMs')::bigint, v_cap))))
  ON CONFLICT ("assignmentId") DO NOTHING;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  INSERT INTO "ParticipantSignals" ("participantId", "studyId", device, webdriver)
  VALUES (p_participant_id, p_study_id, p_signals->'device', (p_signals->>'webdriver')::boolean)
  ON CONFLICT ("participantId") DO NOTHING;
  IF (p_signals->>'webdriver')::boolean THEN
    UPDATE "ParticipantSignals" SET webdriver = true, "lastAt" = now()
    WHERE "participantId" = p_participant_id AND NOT webdriver;
  END IF;
  RETURN true;
END
$fn$;
