-- A service point saved without a change to what it is counted by (its status, carriers, owners and area: a
-- comment, a contact, an opening hour) took its old document off and put its new one on in every one of its
-- groups (migration 046): some 28 count rows written with n + 0, among them the network's own, shared by
-- every service point. On PostgreSQL each of those writes holds its row until the transaction ends, so every
-- save of any service point waited for every other one in progress (`npm run load`, a save in four calls,
-- 50 clients). Groups whose count does not move are now left alone: the counts are the same, and saves that
-- change no count lock no count row.
--
-- The migration runner splits on ';' at line ends: inside the function body a ';' never ends a line.
CREATE OR REPLACE FUNCTION dashboard_service_points_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource = 'service_points') THEN RETURN NULL; END IF; INSERT INTO dashboard_service_points AS d (owner_field, owner_value, area_key, area_value, status_key, carriers, n) SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, sum(w.sign) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'service_points' UNION ALL SELECT doc, 1 FROM written WHERE resource = 'service_points') w, LATERAL dashboard_service_point_groups(w.doc) g GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(w.sign) <> 0 ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT (owner_field, owner_value, area_key, area_value, status_key, carriers) DO UPDATE SET n = d.n + excluded.n; RETURN NULL; END $$;
