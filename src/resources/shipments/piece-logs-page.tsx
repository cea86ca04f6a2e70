import { useState } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { features } from '../../schema/features.ts';
import { featureOption } from '../../schema/permissions.ts';
import { PieceLogLines } from './piece-log-lines.tsx';
import { SHIPMENT_LOGS_OPTION } from './piece-panels.tsx';

/** Route /piece-logs (spec 01 §2.2 "parcel details"): a piece's logs by its id or barcode. */
export function PieceLogsPage() {
  const translate = useTranslate();
  const permissions = useProfile();
  const [pieceId, setPieceId] = useState(() => new URLSearchParams(window.location.search).get('piece_id') ?? '');
  const [barcode, setBarcode] = useState('');
  const [query, setQuery] = useState<Record<string, string> | undefined>(() =>
    pieceId ? { piece_id: pieceId } : undefined,
  );
  const enabled = permissions?.permissions
    ? featureOption(permissions.permissions, features.shipments, SHIPMENT_LOGS_OPTION)
    : false;
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('shipments.logs.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('shipments.logs.title')}
      </Typography>
      {!enabled ? (
        <Alert severity="info">{translate('shipments.logs.disabled')}</Alert>
      ) : (
        <>
          <Stack
            component="form"
            direction="row"
            spacing={2}
            sx={{ mb: 2 }}
            onSubmit={(event) => {
              event.preventDefault();
              const trimmed = { piece_id: pieceId.trim(), piece_barcode: barcode.trim() };
              setQuery(
                trimmed.piece_id
                  ? { piece_id: trimmed.piece_id }
                  : trimmed.piece_barcode
                    ? { piece_barcode: trimmed.piece_barcode }
                    : undefined,
              );
            }}
          >
            <TextField
              size="small"
              label={translate('shipments.logs.piece_id')}
              value={pieceId}
              onChange={(event) => setPieceId(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 30 } }}
            />
            <TextField
              size="small"
              label={translate('shipments.logs.piece_barcode')}
              value={barcode}
              onChange={(event) => setBarcode(event.target.value)}
            />
            <Button type="submit" variant="contained">
              {translate('shipments.logs.search')}
            </Button>
          </Stack>
          {query ? <PieceLogLines query={query} /> : <Typography>{translate('shipments.logs.hint')}</Typography>}
        </>
      )}
    </Box>
  );
}
