import { Button } from '@mui/material';
import { Link } from 'react-router-dom';
import { useRecordContext, useTranslate } from 'react-admin';

/** The warehouse units the order's sub orders produced (issue 27.5): the hardware list filtered by the order. */
export function ProducedUnitsButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record || !record.produced_quantity) return null;
  const filter = encodeURIComponent(JSON.stringify({ order_id: record.id }));
  return (
    <Button component={Link} to={`/hardware?filter=${filter}`}>
      {translate('hardware_orders.produced_units', { smart_count: Number(record.produced_quantity) })}
    </Button>
  );
}
