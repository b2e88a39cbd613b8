-- THE fingerprint of what an answer to an item is graded with: the item's content hash (task, question and public
-- fields as imported), its task and version, and its answer key as stored now. An app process keeps an item's answer
-- key with this hash (record-response.ts) and the answer's write stores nothing unless the item still hashes to it, so
-- a key corrected in place is never graded with the copy from before. A plain SQL expression of immutable operators
-- (not concat_ws, which is only stable): PostgreSQL inlines it.
CREATE OR REPLACE FUNCTION misi_grading_hash(p_content_hash text, p_task_id text, p_task_version int, p_gold jsonb, p_canonical text)
RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT md5(p_content_hash || E'\x1f' || p_task_id || E'\x1f' || p_task_version::text || E'\x1f'
             || coalesce(p_gold::text, '') || E'\x1f' || coalesce(p_canonical, ''))
$fn$;
