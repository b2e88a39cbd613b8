-- The next (current) question's public columns (never the answer key), from CTEs `open` (the participant's open
-- assignments still to answer) and `nxt` (the first of them) joined as n, its item as ni.
n.id AS "nextId", n.position AS "nextPosition", n.phase AS "nextPhase", n."questionShownAt" AS "nextQuestionShownAt",
ni.id AS "itemId", ni."taskId", ni."taskVersion", ni.question, ni.payload,
(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', im.id, 'position', im.position, 'caption', im.caption) ORDER BY im.position), '[]'::jsonb)
 FROM "ItemImage" im WHERE im."itemId" = ni.id) AS images,
-- The question after it: its image ids let the browser fetch them while this one is answered.
(SELECT COALESCE(jsonb_agg(ui.id ORDER BY ui.position), '[]'::jsonb)
 FROM "ItemImage" ui WHERE ui."itemId" = (SELECT o."itemId" FROM open o ORDER BY o.position OFFSET 1 LIMIT 1)) AS "upcomingImageIds"
