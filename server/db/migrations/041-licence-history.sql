-- Hardware licences (issue 27.6): every change of a unit's licence badge (1 activated, 2 no fee, 3 terminated,
-- 4 pending) is a row here, written in the transaction of the unit's write (server/gateway/rules/licences.ts).
-- A row's badge holds from its day (UTC) until the unit's next row; several changes on one day: the last wins.
-- The licence search (GET webtool/hardware/license) reads a period's rows of an owner's units by unit and day.
CREATE TABLE licence_badge_history (
  id bigserial PRIMARY KEY,
  hardware_key text NOT NULL,
  license_status smallint NOT NULL CHECK (license_status BETWEEN 1 AND 4),
  valid_from date NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text
);
CREATE INDEX licence_badge_history_by_unit ON licence_badge_history (hardware_key, valid_from, id);
-- The search starts from the owners' units.
CREATE INDEX records_hardware_by_owner ON records ((doc->>'hardware_owner_id')) WHERE resource = 'service_points/hardware_units';
