import { useRecordContext } from 'react-admin';
import { CompartmentGrids } from '../../schema/ui/compartment-grid.tsx';

/** The Compartments tab of a hardware unit: its locker drawn from the gateway's compartments. */
export function CompartmentsPanel() {
  const record = useRecordContext();
  if (record?.hardware_id === undefined) return null;
  return <CompartmentGrids query={{ hardware_id: record.hardware_id as number }} />;
}
