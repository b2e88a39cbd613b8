-- The join's first read: the study a link names and the participant it or the cookie names (a resume ends here). `query`: the link's
-- query (values trimmed).
-- @param $1 slug text
-- @param $2 query jsonb
-- @param $3 defaultParticipantParam text
-- @param $4 cookieParticipantId text?
SELECT s.id, s.name, s.status::text AS status, s.config, q.param AS lookup_param,
  (SELECT p.id FROM "Participant" p WHERE p."studyId" = s.id AND p."externalId" = ($2::jsonb ->> q.param)) AS by_external,
  (SELECT p.id FROM "Participant" p WHERE p.id = $4::text AND p."studyId" = s.id) AS by_cookie
FROM "Study" s CROSS JOIN LATERAL (SELECT COALESCE(s.config #>> '{prolific,participantParam}', $3::text) AS param) q
WHERE s.slug = $1::text
