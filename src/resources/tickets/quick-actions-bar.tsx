import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, MenuItem, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useGetMany, useListContext, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { useQuery } from '@tanstack/react-query';
import type { BulkActionBarProps } from '../../schema/ui/bulk-actions.tsx';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';
import { accessLevel } from '../../schema/permissions.ts';
import {
  QUICK_ACTION_LOCK_MS,
  QUICK_ACTIONS_MAX,
  deadlineTimes,
  quickActionErrors,
  todayIso,
  type QuickActionValues,
} from '../../schema/ticket-quick-actions.ts';

/** The day picker loads with the bar, not with the app. */
const LocalDateField = lazy(() =>
  import('../../schema/ui/date-time-pickers.tsx').then((pickers) => ({ default: pickers.LocalDateField })),
);

const EMPTY: QuickActionValues = {
  maintenance_provider_id: 0,
  maintenance_operator_id: 0,
  verification_status: 0,
  on_hold_status: 0,
  deadline_date: '',
  deadline_time: '',
};

/** A choice of ids with None (0, which leaves the tickets' value as it is) first. */
function NumberChoice({
  label,
  value,
  choices,
  onPick,
  disabled,
  error,
  hint,
}: {
  label: string;
  value: number;
  choices: { id: number; name: string }[];
  onPick: (id: number) => void;
  disabled?: boolean;
  error?: string;
  hint?: string;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      sx={{ minWidth: 200 }}
      label={label}
      value={value}
      onChange={(event) => onPick(Number(event.target.value))}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error ?? hint}
    >
      <MenuItem value={0}>{translate('quick_actions.none')}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Spec 02 §3 search helper "maintenance operators (active=1)": the provider's active operators. */
function useActiveOperators(providerId: number | undefined) {
  const dataProvider = useGateway();
  const { data } = useQuery({
    queryKey: ['quick-actions-operators', providerId],
    enabled: Boolean(providerId),
    queryFn: () =>
      dataProvider.call<{ data: { operator_id: number; name: string; maintenance_operator_id: string }[] }>({
        method: 'GET',
        path: 'webtool/maintenance/operators',
        query: { active: '1', maintenance_provider_id: String(providerId), offset: '0', limit: '300' },
      }),
  });
  return data?.data ?? [];
}

/**
 * The quick actions bar of the tickets list (spec 02 §3, §5; spec 01 §9): for the chosen tickets (at
 * most 50, Declined, Closed, Courier and Service ones cannot be chosen), set the maintenance provider
 * and operator together (a provider change clears the operator), the verification, the on-hold status
 * and the deadline, in one `PATCH webtool/maintenance/tickets` `quick_actions` call that writes all or
 * nothing. Basic-level users, and maintenance providers, get the reduced form: operator and deadline.
 * Apply locks for a second after each click.
 */
export function QuickActionsBar({ model, selectedIds, clear }: BulkActionBarProps) {
  const { data: page } = useListContext();
  const { data: chosen } = useGetMany(model.name, { ids: selectedIds });
  const tickets = chosen ?? page?.filter((record) => selectedIds.includes(record.id)) ?? [];
  return <QuickActionsForm model={model} selectedIds={selectedIds} tickets={tickets} clear={clear} />;
}

/**
 * The quick actions form for tickets already chosen, in the tickets list's bar or in the main
 * layout's quick-action overlay (`quick-action-overlay.tsx`), where they are chosen by number.
 */
export function QuickActionsForm({
  model,
  selectedIds,
  tickets,
  clear,
}: Pick<BulkActionBarProps, 'model' | 'selectedIds' | 'clear'> & { tickets: RaRecord[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useGateway();
  const profile = useProfile();
  const [values, setValues] = useState<QuickActionValues>(EMPTY);
  const [refusal, setRefusal] = useState<string>();
  const [locked, setLocked] = useState(false);
  const [sending, setSending] = useState(false);
  const unlock = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(unlock.current), []);

  const level = profile?.permissions ? accessLevel(profile.permissions, model.features) : undefined;
  const ownProvider = profile?.partnerType === 'maintenance_provider' ? Number(profile.partner) : undefined;
  const reduced = !profile?.superAdmin && (level === 'basic' || ownProvider !== undefined);

  const providers = useLookupChoices('webtool/lists?type=maintenance_providers');
  const ticketProviders = new Set(tickets.map((ticket) => ticket.maintenance_provider_id ?? null));
  const commonProvider = ticketProviders.size === 1 ? ([...ticketProviders][0] as number | null) : undefined;
  // The operators offered: of the provider chosen, else the provider's own, else the one the tickets share.
  const operatorProvider = values.maintenance_provider_id || ownProvider || commonProvider || undefined;
  const operators = useActiveOperators(operatorProvider);
  const times = useMemo(() => deadlineTimes(), []);
  const errors = quickActionErrors(values, selectedIds.length, { reduced, ownProvider, today: todayIso() });
  const set = (patch: Partial<QuickActionValues>) => setValues((current) => ({ ...current, ...patch }));

  const apply = async () => {
    setLocked(true);
    clearTimeout(unlock.current);
    unlock.current = setTimeout(() => setLocked(false), QUICK_ACTION_LOCK_MS);
    setRefusal(undefined);
    setSending(true);
    try {
      // One PATCH with the `quick_actions` opname (`x-resource.bulkUpdate`), all or nothing.
      await dataProvider.updateMany(model.name, { ids: selectedIds, data: values });
      notify('quick_actions.done', { type: 'success', messageArgs: { smart_count: selectedIds.length } });
      setValues(EMPTY);
      clear();
      refresh();
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setSending(false);
    }
  };

  const fieldError = (field: keyof QuickActionValues) =>
    errors.fields[field] ? translate(errors.fields[field]!.message, errors.fields[field]!.args) : undefined;

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 1 }} role="region" aria-label={translate('quick_actions.title')}>
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="subtitle1" component="h2">
          {translate('quick_actions.title')}
        </Typography>
        <Typography variant="body2">
          {translate('quick_actions.chosen', { smart_count: selectedIds.length, max: QUICK_ACTIONS_MAX })}
        </Typography>
        <Button size="small" onClick={clear}>
          {translate('quick_actions.clear')}
        </Button>
      </Stack>
      {refusal && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {refusal}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        {!reduced && (
          <NumberChoice
            label={translate('quick_actions.fields.maintenance_provider_id')}
            value={values.maintenance_provider_id}
            choices={providers.map((choice) => ({ id: Number(choice.id), name: choice.name }))}
            // A provider change clears the operator (spec 02 §5).
            onPick={(id) => set({ maintenance_provider_id: id, maintenance_operator_id: 0 })}
            error={fieldError('maintenance_provider_id')}
          />
        )}
        <NumberChoice
          label={translate('quick_actions.fields.maintenance_operator_id')}
          value={values.maintenance_operator_id}
          choices={operators.map((operator) => ({
            id: operator.operator_id,
            name: `${operator.name} (${operator.maintenance_operator_id})`,
          }))}
          onPick={(id) => set({ maintenance_operator_id: id })}
          disabled={!operatorProvider}
          error={fieldError('maintenance_operator_id')}
          hint={operatorProvider ? undefined : translate('quick_actions.operator_needs_provider')}
        />
        {!reduced && (
          <NumberChoice
            label={translate('quick_actions.fields.verification_status')}
            value={values.verification_status}
            choices={[1, 2, 3, 4].map((id) => ({ id, name: translate(`choices.ticket_verification.${id}`) }))}
            onPick={(id) => set({ verification_status: id })}
            error={fieldError('verification_status')}
          />
        )}
        {!reduced && (
          <NumberChoice
            label={translate('quick_actions.fields.on_hold_status')}
            value={values.on_hold_status}
            choices={[1, 2].map((id) => ({ id, name: translate(`quick_actions.on_hold.${id}`) }))}
            onPick={(id) => set({ on_hold_status: id })}
          />
        )}
        <Suspense fallback={<Skeleton variant="rounded" width={200} height={40} />}>
          <LocalDateField
            size="small"
            name="deadline_date"
            label={translate('quick_actions.fields.deadline_date')}
            value={values.deadline_date}
            onChange={(day) => set({ deadline_date: day, ...(day ? {} : { deadline_time: '' }) })}
            minDate={new Date(`${todayIso()}T00:00`)}
            error={fieldError('deadline_date')}
          />
        </Suspense>
        <TextField
          select
          size="small"
          sx={{ minWidth: 120 }}
          label={translate('quick_actions.fields.deadline_time')}
          value={values.deadline_time}
          onChange={(event) => set({ deadline_time: event.target.value })}
          // Spec 02 §5: the time is enabled only once a date is chosen.
          disabled={!values.deadline_date}
        >
          <MenuItem value="">{translate('quick_actions.none')}</MenuItem>
          {times.map((time) => (
            <MenuItem key={time} value={time}>
              {time}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          onClick={() => void apply()}
          disabled={locked || sending || !errors.valid}
          sx={{ transition: `opacity ${QUICK_ACTION_LOCK_MS}ms`, opacity: locked ? 0.6 : 1 }}
        >
          {translate('quick_actions.apply')}
        </Button>
      </Box>
      {errors.general && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate(errors.general)}
        </Typography>
      )}
    </Paper>
  );
}
