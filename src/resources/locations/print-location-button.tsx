import { useState } from 'react';
import PrintIcon from '@mui/icons-material/Print';
import { CircularProgress } from '@mui/material';
import { Button, useNotify, useRecordContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { cachePrintData, printKeys, type LocationExport } from '../../schema/print-cache.ts';

/**
 * The location's print sheet (spec 01 §2.5): the gateway's location export (`GET opname=export`) is
 * cached for the print page, which then opens and prints it with each proposal's map.
 */
export function PrintLocationButton() {
  const record = useRecordContext<{ location_id: number }>();
  const calls = useGateway();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const id = String(record.location_id);

  async function print() {
    setBusy(true);
    try {
      const answer = await calls.action<{ data: LocationExport }>('locations', 'GET', 'export', undefined, {
        location_id: id,
      });
      cachePrintData(printKeys.location(id), answer.data);
      navigate(`/print/location/${id}`);
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
      setBusy(false);
    }
  }

  return (
    <Button label="location_proposals.actions.print" onClick={() => void print()} disabled={busy}>
      {busy ? <CircularProgress size={16} /> : <PrintIcon />}
    </Button>
  );
}
