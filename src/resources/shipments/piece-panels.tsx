import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  useCanAccess,
  useCreatePath,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { features } from '../../schema/features.ts';
import { featureOption } from '../../schema/permissions.ts';
import { usePieceDetail, type PieceDetail, type Verdict } from './piece-detail.ts';
import { PieceLogLines } from './piece-log-lines.tsx';
import { PieceEventsTable } from '../../schema/ui/piece-events-table.tsx';
import { dateTexts } from '../../schema/dates.ts';
import { PieceType } from '../../types/generated/codes.ts';

/** The shipment logs option of spec 01 §6 ("shipment logs"), per user's policies. */
export const SHIPMENT_LOGS_OPTION = 'shipment_logs';

function usePieceId() {
  const record = useRecordContext();
  return record?.piece_id === undefined ? undefined : String(record.piece_id);
}

function useDateTime() {
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  return (value: string | null | undefined) => (value ? dates.dateTime(value) : '-');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Loading({ error }: { error: unknown }) {
  const translate = useTranslate();
  if (error) {
    return (
      <Alert severity="error">
        {translate('shipments.detail.failed', { message: translate((error as Error).message) })}
      </Alert>
    );
  }
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <CircularProgress size={18} />
      <Typography>{translate('shipments.detail.loading')}</Typography>
    </Stack>
  );
}

/** Details of an event worth reading in the timeline: a comment, a new expiry, where a parcel went. */
function eventDetails(details: Record<string, unknown>, dateTime: (value: string) => string) {
  const parts: string[] = [];
  if (typeof details.comment === 'string') parts.push(details.comment);
  if (typeof details.expiry_at === 'string') parts.push(`→ ${dateTime(details.expiry_at)}`);
  if (typeof details.valid_until === 'string') parts.push(`→ ${dateTime(details.valid_until)}`);
  if (typeof details.rating === 'number') parts.push(`★ ${details.rating}`);
  if (typeof details.compartment_id === 'number') parts.push(`#${details.compartment_id}`);
  return parts.join(' ');
}

type Tokens = NonNullable<PieceDetail['piece']['tokens']>;

/** A piece's tokens: type, status, code and how long each is valid. */
function TokensTable({ tokens }: { tokens: Tokens }) {
  const translate = useTranslate();
  const dateTime = useDateTime();
  return tokens.length ? (
    <Table size="small" aria-label={translate('shipments.detail.tokens')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('shipments.detail.token_type')}</TableCell>
          <TableCell>{translate('shipments.detail.token_status')}</TableCell>
          <TableCell>{translate('shipments.detail.code')}</TableCell>
          <TableCell>{translate('shipments.detail.valid_until')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {tokens.map((token, index) => (
          <TableRow key={index}>
            <TableCell>{translate(`choices.token_type.${token.token_type}`)}</TableCell>
            <TableCell>
              <Chip size="small" variant="outlined" label={translate(`choices.token_status.${token.status}`)} />
            </TableCell>
            <TableCell>{token.code}</TableCell>
            <TableCell>{dateTime(token.valid_until)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  ) : (
    <Typography>{translate('shipments.detail.no_tokens')}</Typography>
  );
}

/**
 * The notifications sent for a piece (issue 28.3): when, which kind with its message, by which channel, to whom
 * (masked for a partner that may not read contact data) and how it went; with a link to them on /notifications.
 */
function NotificationsTable({
  notifications,
  pieceId,
}: {
  notifications: PieceDetail['notifications'];
  pieceId?: string;
}) {
  const translate = useTranslate();
  const dateTime = useDateTime();
  const { canAccess } = useCanAccess({ resource: 'notifications', action: 'list' });
  const listLink =
    canAccess && pieceId ? (
      <Link
        component={RouterLink}
        to={`/notifications?filter=${encodeURIComponent(JSON.stringify({ piece_id: pieceId }))}`}
        sx={{ display: 'inline-block', mt: 1 }}
      >
        {translate('shipments.detail.all_notifications')}
      </Link>
    ) : null;
  return notifications.length ? (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('shipments.detail.notifications')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('shipments.detail.at')}</TableCell>
            <TableCell>{translate('shipments.detail.kind')}</TableCell>
            <TableCell>{translate('shipments.detail.channel')}</TableCell>
            <TableCell>{translate('shipments.detail.to')}</TableCell>
            <TableCell>{translate('shipments.detail.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {notifications.map((notice) => (
            <TableRow key={notice.notification_id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(notice.at)}</TableCell>
              <TableCell>
                {translate(`choices.notification_kind.${notice.kind}`)}
                <Typography variant="caption" component="div" color="text.secondary" sx={{ minWidth: 180 }}>
                  {notice.text}
                </Typography>
              </TableCell>
              <TableCell>{translate(`choices.notification_channel.${notice.channel}`)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{notice.recipient}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={notice.status === 'failed' ? 'error' : notice.status === 'delivered' ? 'success' : 'info'}
                  label={translate(`choices.notification_status.${notice.status}`)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {listLink}
    </Box>
  ) : (
    <Typography>{translate('shipments.detail.no_notifications')}</Typography>
  );
}

/** Where the parcel lies: the unit by name (a link for users who may open hardware) and its place in the grid. */
function UnitPlace({
  compartment,
  name: withName = true,
  position: withPosition = true,
}: {
  compartment: PieceDetail['compartment'];
  name?: boolean;
  position?: boolean;
}) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { canAccess: mayOpenHardware } = useCanAccess({ resource: 'hardware', action: 'show' });
  const name = compartment.hardware_name ?? compartment.hardware_id;
  return (
    <>
      {!withName ? null : mayOpenHardware ? (
        <Link
          component={RouterLink}
          to={createPath({ resource: 'hardware', id: compartment.hardware_id!, type: 'show' })}
        >
          {name}
        </Link>
      ) : (
        name
      )}
      {withPosition &&
        compartment.column !== null &&
        `${withName ? ' · ' : ''}${translate('shipments.detail.position', { column: compartment.column, position: compartment.position })}`}
    </>
  );
}

/**
 * The piece's own tab shows its place, tokens and notifications as the Events tab does (`x-input.kind`
 * piece-place, piece-tokens, piece-notifications), read from the same piece detail, not as ids and raw values.
 */
export function PiecePlaceValue() {
  const translate = useTranslate();
  const { detail } = usePieceDetail(usePieceId());
  if (!detail.data) return <Loading error={detail.error} />;
  const { compartment } = detail.data;
  return compartment.hardware_id ? (
    <Typography component="span">
      <UnitPlace compartment={compartment} position={false} />
    </Typography>
  ) : (
    <Typography component="span">{translate('shipments.detail.no_compartment')}</Typography>
  );
}

/**
 * A piece's end user (`x-input.kind` piece-end-user): by the name the piece gives them (the recipient of a
 * delivery, the sender of a drop-off), else their phone or e-mail, linked to their page for those who may
 * open it; never the database id (issue 24: "End user: 1408"). End users are found by phone, not listed
 * by id, so the name is the piece's own.
 */
export function PieceEndUserValue() {
  const record = useRecordContext();
  const createPath = useCreatePath();
  const { canAccess } = useCanAccess({ resource: 'end-users', action: 'edit' });
  if (!record?.enduser_id) return <Typography component="span">-</Typography>;
  const sender = record.piece_type === PieceType.EndUserDropOff;
  const words = [
    sender ? record.sender_name : record.recipient_name,
    record.end_user_phone,
    record.end_user_email,
  ].find((value) => typeof value === 'string' && value.trim() !== '') as string | undefined;
  const text = words ?? '-';
  return (
    <Typography component="span">
      {canAccess && words ? (
        <Link component={RouterLink} to={createPath({ resource: 'end-users', id: record.enduser_id, type: 'edit' })}>
          {text}
        </Link>
      ) : (
        text
      )}
    </Typography>
  );
}

/** A piece's compartment (`x-input.kind` piece-compartment): its column and position in the unit. */
export function PieceCompartmentValue() {
  const { detail } = usePieceDetail(usePieceId());
  if (!detail.data) return <Loading error={detail.error} />;
  const { compartment } = detail.data;
  return (
    <Typography component="span">
      {compartment.column === null ? '-' : <UnitPlace compartment={compartment} name={false} />}
    </Typography>
  );
}

export function PieceTokensValue() {
  const { detail } = usePieceDetail(usePieceId());
  if (!detail.data) return <Loading error={detail.error} />;
  return <TokensTable tokens={detail.data.piece.tokens ?? []} />;
}

export function PieceNotificationsValue() {
  const { detail } = usePieceDetail(usePieceId());
  if (!detail.data) return <Loading error={detail.error} />;
  return <NotificationsTable notifications={detail.data.notifications} pieceId={detail.data.piece.piece_id} />;
}

/** The Events tab: the timeline, the tokens, the compartment and the notifications sent. */
export function PieceEventsPanel() {
  const pieceId = usePieceId();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const dateTime = useDateTime();
  const { detail } = usePieceDetail(pieceId);
  if (!detail.data) return <Loading error={detail.error} />;
  const { events, piece, compartment, notifications } = detail.data;
  const tokens = piece.tokens ?? [];
  return (
    <Box>
      <Section title={translate('shipments.detail.events')}>
        {events.length ? (
          <PieceEventsTable
            events={events}
            label={translate('shipments.detail.events')}
            details={(event) => eventDetails(event.details ?? {}, dateTime)}
          />
        ) : (
          <Typography>{translate('shipments.detail.no_events')}</Typography>
        )}
      </Section>
      <Section title={translate('shipments.detail.tokens')}>
        <TokensTable tokens={tokens} />
      </Section>
      <Section title={translate('shipments.detail.compartment')}>
        <Stack spacing={0.5}>
          <Typography>
            {translate('shipments.detail.service_point')}:{' '}
            <Link
              component={RouterLink}
              to={createPath({ resource: 'service-points', id: compartment.service_point_id, type: 'show' })}
            >
              {compartment.service_point_name ?? compartment.service_point_id}
            </Link>
          </Typography>
          {compartment.hardware_id ? (
            <Typography>
              {translate('shipments.detail.hardware_unit')}: <UnitPlace compartment={compartment} />
            </Typography>
          ) : (
            <Typography>{translate('shipments.detail.no_compartment')}</Typography>
          )}
        </Stack>
      </Section>
      <Section title={translate('shipments.detail.notifications')}>
        <NotificationsTable notifications={notifications} pieceId={piece.piece_id} />
      </Section>
    </Box>
  );
}

/** The width and height of an action's cell: the same whether the action is allowed or refused. */
const ACTION_CELL = { width: 240, height: 84 };

/**
 * A button the gateway's validation may refuse: disabled, with the reason in a tooltip and, cut to two
 * lines, under it. Its cell keeps its size either way, so that the buttons never move after an action.
 */
function ActionButton({
  label,
  verdict,
  busy,
  onClick,
}: {
  label: string;
  verdict: Verdict | undefined;
  busy: boolean;
  onClick: () => void;
}) {
  const translate = useTranslate();
  const refused = verdict !== undefined && !verdict.allowed;
  const reason = refused
    ? verdict.message_key
      ? translate(verdict.message_key, { _: verdict.reason })
      : verdict.reason
    : undefined;
  return (
    <Box sx={{ ...ACTION_CELL, flexShrink: 0 }} data-testid="troubleshooting-action">
      <Tooltip title={reason ?? ''} describeChild>
        <span style={{ display: 'block' }}>
          <Button variant="outlined" fullWidth disabled={!verdict || refused || busy} onClick={onClick}>
            {translate(label)}
          </Button>
        </span>
      </Tooltip>
      {reason && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{
            mt: 0.5,
            overflow: 'hidden',
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
          }}
        >
          {reason}
        </Typography>
      )}
    </Box>
  );
}

/** An action that changes the parcel: asked first, the question saying what it does. */
interface Confirmable {
  label: string;
  question: string;
  opname: string;
  body: Record<string, unknown>;
  done: string;
}

const confirmables = {
  resend_end_user: { opname: 'resend_token', body: { target: 'end_user' }, done: 'shipments.done.resend_end_user' },
  resend_courier: { opname: 'resend_token', body: { target: 'courier' }, done: 'shipments.done.resend_courier' },
  extend_24: { opname: 'update_expiry', body: { change: 'extend_24' }, done: 'shipments.done.extend' },
  extend_48: { opname: 'update_expiry', body: { change: 'extend_48' }, done: 'shipments.done.extend' },
  force_expiry: { opname: 'update_expiry', body: { change: 'force' }, done: 'shipments.done.force_expiry' },
  cancel: { opname: 'cancel_piece', body: {}, done: 'shipments.done.cancel' },
  process_manually: { opname: 'process_manually', body: {}, done: 'shipments.done.process_manually' },
} satisfies Record<string, Omit<Confirmable, 'label' | 'question'>>;

/**
 * The Troubleshooting tab: notifications and actions, as the gateway's validation allows them now. Every
 * action stays in its place, disabled with its reason when refused; every one that changes the parcel
 * (its expiry, its state, its tokens, its place) asks first, saying what it will do.
 */
export function PieceTroubleshootingPanel() {
  const pieceId = usePieceId();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'shipments', action: 'edit' });
  const { troubleshoot, send, perform } = usePieceDetail(pieceId);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirmable>();
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string>();
  const [unit, setUnit] = useState('');
  if (canAccess === false) return <Alert severity="info">{translate('shipments.troubleshooting.read_only')}</Alert>;
  if (!troubleshoot.data || !send.data) return <Loading error={troubleshoot.error ?? send.error} />;
  const { actions, units, comment: limits } = troubleshoot.data;
  const { notifications } = send.data;

  const run = async (opname: string, body: Record<string, unknown>, done: string) => {
    setBusy(true);
    try {
      await perform(opname, body);
      notify(done, { type: 'info' });
      refresh();
      return true;
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const ask = (name: keyof typeof confirmables) =>
    setConfirming({
      ...confirmables[name],
      label: translate(`shipments.actions.${name}`),
      question: translate(`shipments.confirm.${name}`),
    });
  const confirmed = async () => {
    const action = confirming;
    setConfirming(undefined);
    if (!action) return;
    const moved = await run(action.opname, action.body, action.done);
    if (moved && action.opname === 'move_piece') setUnit('');
  };
  const addComment = async () => {
    const nonSpace = comment.replace(/\s/g, '').length;
    if (nonSpace < limits.min_characters) {
      setCommentError(translate('validation.min_non_space', { min: limits.min_characters }));
      return;
    }
    if (comment.length > limits.max_length) {
      setCommentError(translate('validation.max_length', { max: limits.max_length }));
      return;
    }
    setCommentError(undefined);
    if (await run('add_comment', { comment }, 'shipments.done.add_comment')) setComment('');
  };
  const freeUnits = units.filter((candidate) => candidate.free_compartments > 0);
  const target = freeUnits.find((candidate) => String(candidate.hardware_id) === unit);
  const row = { display: 'flex', flexWrap: 'wrap', gap: 2, mb: 1 } as const;

  return (
    <Box>
      <Section title={translate('shipments.troubleshooting.notifications')}>
        <Box sx={row}>
          <ActionButton
            label="shipments.actions.resend_end_user"
            verdict={notifications.end_user}
            busy={busy}
            onClick={() => ask('resend_end_user')}
          />
          <ActionButton
            label="shipments.actions.resend_courier"
            verdict={notifications.courier}
            busy={busy}
            onClick={() => ask('resend_courier')}
          />
        </Box>
      </Section>
      <Section title={translate('shipments.troubleshooting.actions')}>
        <Box sx={row}>
          <ActionButton
            label="shipments.actions.extend_24"
            verdict={actions.extend_expiry}
            busy={busy}
            onClick={() => ask('extend_24')}
          />
          <ActionButton
            label="shipments.actions.extend_48"
            verdict={actions.extend_expiry}
            busy={busy}
            onClick={() => ask('extend_48')}
          />
          <ActionButton
            label="shipments.actions.force_expiry"
            verdict={actions.force_expiry}
            busy={busy}
            onClick={() => ask('force_expiry')}
          />
          <ActionButton
            label="shipments.actions.cancel"
            verdict={actions.cancel}
            busy={busy}
            onClick={() => ask('cancel')}
          />
          <ActionButton
            label="shipments.actions.process_manually"
            verdict={actions.process_manually}
            busy={busy}
            onClick={() => ask('process_manually')}
          />
        </Box>
        <Box sx={row}>
          <TextField
            select
            size="small"
            sx={{ width: ACTION_CELL.width }}
            label={translate('shipments.troubleshooting.move_to')}
            value={unit}
            disabled={!actions.move.allowed || busy}
            onChange={(event) => setUnit(event.target.value)}
          >
            {freeUnits.map((candidate) => (
              <MenuItem key={candidate.hardware_id} value={String(candidate.hardware_id)}>
                {translate('shipments.troubleshooting.free', {
                  name: candidate.name ?? candidate.hardware_id,
                  count: candidate.free_compartments,
                })}
              </MenuItem>
            ))}
          </TextField>
          <ActionButton
            label="shipments.actions.move"
            verdict={actions.move}
            busy={busy || (actions.move.allowed && !target)}
            onClick={() =>
              target &&
              setConfirming({
                label: translate('shipments.actions.move'),
                question: translate('shipments.confirm.move', { name: target.name ?? target.hardware_id }),
                opname: 'move_piece',
                body: { hardware_id: target.hardware_id },
                done: 'shipments.done.move',
              })
            }
          />
        </Box>
        <Stack direction="row" spacing={2} alignItems="flex-start">
          <TextField
            multiline
            minRows={2}
            sx={{ flex: 1, maxWidth: 560 }}
            label={translate('shipments.troubleshooting.comment')}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            error={commentError !== undefined}
            helperText={
              commentError ??
              translate('shipments.troubleshooting.comment_help', {
                min: limits.min_characters,
                max: limits.max_length,
              })
            }
          />
          <Button variant="contained" disabled={busy} onClick={addComment}>
            {translate('shipments.actions.add_comment')}
          </Button>
        </Stack>
      </Section>
      <Dialog
        open={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        aria-labelledby="troubleshooting-confirm-title"
      >
        <DialogTitle id="troubleshooting-confirm-title">{confirming?.label}</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirming?.question}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(undefined)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" onClick={confirmed}>
            {confirming?.label}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/** The Logs tab: the piece's log lines, when the shipment logs option is on for the user. */
export function PieceLogsPanel() {
  const pieceId = usePieceId();
  const translate = useTranslate();
  const permissions = useProfile();
  const enabled = permissions?.permissions
    ? featureOption(permissions.permissions, features.shipments, SHIPMENT_LOGS_OPTION)
    : false;
  if (!enabled) return <Alert severity="info">{translate('shipments.logs.disabled')}</Alert>;
  return pieceId ? <PieceLogLines query={{ piece_id: pieceId }} /> : null;
}
