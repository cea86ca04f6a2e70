import { Fragment, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Collapse,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import { Link } from 'react-router-dom';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { dateTexts } from '../../schema/dates.ts';
import { PieceEventsTable } from '../../schema/ui/piece-events-table.tsx';
import { useGateway } from '../../schema/ui/gateway-api.ts';

interface PieceEvent {
  id: number;
  event_code: number;
  at: string;
  actor: string | null;
}

interface PieceWithEvents {
  piece_id: string;
  service_point_id: number;
  carrier_id: number;
  state?: number;
  active?: boolean;
  created_at?: string;
  events: PieceEvent[];
}

function PieceRow({ piece }: { piece: PieceWithEvents }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [locale] = useLocaleState();
  const when = (iso?: string) => (iso ? dateTexts(locale).dateTime(iso) : '-');
  const eventName = (code?: number) =>
    code === undefined ? '-' : translate(`choices.piece_event.${code}`, { _: String(code) });
  return (
    <Fragment>
      <TableRow>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={translate(open ? 'end_users.hide_events' : 'end_users.show_events', { piece: piece.piece_id })}
            onClick={() => setOpen(!open)}
          >
            {open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          </IconButton>
        </TableCell>
        <TableCell>
          <Link to={`/shipments/${encodeURIComponent(piece.piece_id)}/show`}>{piece.piece_id}</Link>
        </TableCell>
        <TableCell>{eventName(piece.state)}</TableCell>
        <TableCell>{translate(piece.active ? 'end_users.waiting' : 'end_users.done')}</TableCell>
        <TableCell>{when(piece.created_at)}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={5} sx={{ py: 0, borderBottom: open ? undefined : 'none' }}>
          <Collapse in={open} unmountOnExit>
            <PieceEventsTable
              events={piece.events}
              label={translate('end_users.events_of', { piece: piece.piece_id })}
            />
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
}

/** The end user's pieces the caller sees, each with its events (`GET opname=get_user_events`). */
export function EndUserPieces() {
  const translate = useTranslate();
  const record = useRecordContext();
  const dataProvider = useGateway();
  const [pieces, setPieces] = useState<PieceWithEvents[]>();
  const [failure, setFailure] = useState<string>();
  const id = record?.enduser_id;
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    dataProvider
      .action<{ data: PieceWithEvents[] }>('end-users', 'GET', 'get_user_events', undefined, { enduser_id: id })
      .then(
        (answer) => live && setPieces(answer.data),
        (error: Error) => live && setFailure(error.message),
      );
    return () => {
      live = false;
    };
  }, [dataProvider, id, record?.version]);

  if (failure) return <Alert severity="error">{failure}</Alert>;
  if (!pieces) return <Typography role="status">{translate('ra.page.loading')}</Typography>;
  return (
    <Box>
      {record?.marked_for_deletion && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('end_users.marked_explained', { smart_count: Number(record.active_pieces ?? 0) })}
        </Alert>
      )}
      {pieces.length === 0 ? (
        <Alert severity="info">{translate('end_users.no_pieces')}</Alert>
      ) : (
        <Table size="small" aria-label={translate('resources.end-users.tabs.pieces')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{translate('end_users.piece_id')}</TableCell>
              <TableCell>{translate('end_users.state')}</TableCell>
              <TableCell>{translate('end_users.status')}</TableCell>
              <TableCell>{translate('end_users.created_at')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {pieces.map((piece) => (
              <PieceRow key={piece.piece_id} piece={piece} />
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
