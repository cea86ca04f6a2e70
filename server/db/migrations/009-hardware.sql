-- The physical network (issue 13): a unit's compartments and a service point's units are read by
-- their parent's id on every unit page, delete and badge refresh; tickets by their unit when a
-- unit is terminated or deleted. Partial indexes keep each to the one resource that needs it.
CREATE INDEX records_compartments_by_unit ON records ((doc->>'hardware_id')) WHERE resource = 'compartments';
CREATE INDEX records_hardware_by_service_point ON records ((doc->>'service_point_id')) WHERE resource = 'service_points/hardware_units';
CREATE INDEX records_tickets_by_unit ON records ((doc->>'hardware_unit_id')) WHERE resource = 'maintenance/tickets';
