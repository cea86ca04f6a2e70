import { bulkImport, storedNamesAndPlaces } from '../../bulk-import.ts';
import { SERVICE_POINTS } from '../shared/hardware-store.ts';

/**
 * The bulk import of service points (spec 02 §5, §7): the generic import (schema limits, formula cells,
 * repeats inside the file, `import_from`, `is_toggle_enabled` making test service points) plus two
 * checks against what is stored: a name, or a pair of coordinates, that a live service point already
 * has is flagged as existing (a terminated one frees its name and place).
 */

/** Imported rows take the address index's id in the service point rules (`service-point-address.ts`). */
export function servicePointBulkImport() {
  return bulkImport({
    // A terminated service point frees its name and place.
    hooks: storedNamesAndPlaces(SERVICE_POINTS, "coalesce((doc->>'is_terminated')::boolean, false) = false"),
  });
}
