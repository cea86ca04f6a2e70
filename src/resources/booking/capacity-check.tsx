import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Alert, Box, Button, CircularProgress, Stack } from '@mui/material';
import InventoryIcon from '@mui/icons-material/Inventory2';
import { useTranslate } from 'react-admin';
import { useGateway, type QueryValue } from '../../schema/ui/gateway-api.ts';

type CapacityAnswer = { free_capacity: number; reason?: string };
const PARCEL_FIELDS = ['service_point_id', 'carrier_id', 'height', 'width', 'depth', 'piece_type'] as const;

/**
 * The capacity query of the booking form (spec 02 §3, §7: `GET webtool/booking?opname=get_capacity`):
 * how many compartments of the chosen service point the carrier's parcel fits in now.
 */
export function CapacityCheck() {
  const translate = useTranslate();
  const dataProvider = useGateway();
  const values = useWatch() as Record<string, QueryValue>;
  const [answer, setAnswer] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const missing = PARCEL_FIELDS.filter(
    (field) => values[field] === undefined || values[field] === null || values[field] === '',
  );

  const check = async () => {
    setBusy(true);
    setAnswer(undefined);
    try {
      const result = await dataProvider.action<CapacityAnswer>('booking', 'GET', 'get_capacity', undefined, {
        sp_id: values.service_point_id,
        carrier_id: values.carrier_id,
        height: values.height,
        width: values.width,
        depth: values.depth,
        wheelchair_accessible: values.wheelchair_accessible === true,
        shipment_type: values.piece_type,
      });
      setAnswer(
        result.free_capacity > 0
          ? { ok: true, text: translate('booking.capacity.free', { smart_count: result.free_capacity }) }
          : {
              ok: false,
              text: [
                translate('catalogue.booking_no_capacity'),
                result.reason && translate(`booking.capacity.reasons.${result.reason}`),
              ]
                .filter(Boolean)
                .join(' — '),
            },
      );
    } catch (error) {
      setAnswer({ ok: false, text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ my: 1, width: '100%' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={busy ? <CircularProgress size={16} /> : <InventoryIcon />}
          onClick={() => void check()}
          disabled={busy || missing.length > 0}
        >
          {translate('booking.capacity.check')}
        </Button>
        {missing.length > 0 && !answer && <span>{translate('booking.capacity.needs')}</span>}
      </Stack>
      {answer && (
        <Alert severity={answer.ok ? 'success' : 'warning'} role="status" sx={{ mt: 1 }}>
          {answer.text}
        </Alert>
      )}
    </Box>
  );
}
