-- THE capacity rules of a study, each defined once; every participant-flow statement and function that needs one calls
-- it (tests/integration/participant/capacity-definition.test.ts replaces each definition and checks every caller).
-- Plain SQL functions of one expression: PostgreSQL inlines them into the calling statement, so a condition on a
-- counter's columns stays an index condition (the start's pick reads one range of
-- "StudyItemCounter_studyId_taskId_reserved_rank_idx").

-- An item has a free slot: its counter is below k (reserved counts live reservations and answers), the item is still
-- active, and it is not one of the study's practice or attention items (those are never main items).
-- p_item_status: the item's status ((SELECT i.status FROM "Item" i WHERE i.id = c."itemId") reads it per row, one
-- primary-key probe, whatever the table's statistics).
CREATE OR REPLACE FUNCTION misi_slot_free(p_reserved int, p_item_id text, p_item_status text, p_k int, p_special text[])
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_reserved < p_k AND p_item_status = 'active' AND NOT (p_item_id = ANY(p_special))
$fn$;
