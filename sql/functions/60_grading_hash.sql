-- THE fingerprint of what an answer to an item is graded with: the item's content hash (task, question and public
-- fields as imported), its task and version, and its answer key as stored now. An app process keeps an item's answer
-- key with this hash (record-response.ts) and the answer's write stores nothing unless the item still hashes to it, so
-- a key corrected in place is never graded with the copy from before. A plain SQL expression: PostgreSQL inlines it.
CREATE OR REPLACE FUNCTION misi_grading_hash(p_content_hash text, p_task_id text, p_task_version int, p_gold jsonb, p_canonical text)
RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT md5(concat_ws(E'\x1f', p_content_hash, p_task_id, p_task_version::text, p_gold::text, p_canonical))
$fn$;
