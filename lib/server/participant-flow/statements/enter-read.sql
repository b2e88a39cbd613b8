-- The join's first read: the study a link names and the participant it or the cookie names (a resume ends here). `query`: the link's
-- query (values trimmed).
-- @param $1 slug text
-- @param $2 query jsonb
-- @param $3 defaultParticipantParam text
-- @param $4 cookieParticipantId text?
SELECT s.id, s.name, s.status::text AS status, s.config, q.param AS lookup_param,
  -- Each participant found through one index whatever the statistics, the study checked on the row (CASE: no index
  -- serves it): by external id (Participant_externalId_idx: the studies this person joined) and by the cookie's id
  -- (the primary key). With the study as an index condition, a plan made while the study was small walked every
  -- participant of the study on each join (docs/participant-flow-sql.md, "Performance").
  (SELECT p.id FROM "Participant" p
   WHERE p."externalId" = ($2::jsonb ->> q.param) AND CASE WHEN p."studyId" = s.id THEN true ELSE false END) AS by_external,
  (SELECT p.id FROM "Participant" p WHERE p.id = $4::text AND CASE WHEN p."studyId" = s.id THEN true ELSE false END) AS by_cookie
FROM "Study" s CROSS JOIN LATERAL (SELECT COALESCE(s.config #>> '{prolific,participantParam}', $3::text) AS param) q
WHERE s.slug = $1::text
