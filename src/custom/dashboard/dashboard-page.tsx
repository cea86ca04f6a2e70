import { lazy, Suspense, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  ButtonGroup,
  Card,
  CardContent,
  Checkbox,
  ListItemText,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import LinkIcon from '@mui/icons-material/Link';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { useProfile } from '../../schema/ui/profile.ts';
import {
  AREA_KEYS,
  BUCKETS,
  DASHBOARD_WIDGETS,
  type DashboardWidget,
  type WidgetData,
} from '../../schema/dashboard.ts';
import { exportFileName } from '../../schema/csv-export.ts';
import {
  areaSource,
  carrierIdsOf,
  changedView,
  searchOfView,
  viewFromSearch,
  type DashboardView,
} from './dashboard-filters.ts';
import { widgetPlan, type WidgetPlan } from './widget-plan.ts';
import { dashboardApi, dashboardKeys, type ListItem } from './api.ts';
import { downloadBlob } from '../../schema/ui/download-file.ts';

/** The chart library is a chunk of its own, fetched when the first chart draws. */
const WidgetChart = lazy(() => import('./widget-chart.tsx'));
const LocalDateField = lazy(() =>
  import('../../schema/ui/date-time-pickers.tsx').then((pickers) => ({ default: pickers.LocalDateField })),
);

interface CallError {
  message?: string;
  status?: number;
}

/** The gateway's refusal, already in the user's language (the gateway client translates its message key). */
function errorText(error: unknown, translate: (key: string, options?: Record<string, unknown>) => string) {
  return (error as CallError).message || translate('dashboard.states.error');
}

function useLookup(type: string | undefined) {
  const api = dashboardApi(useGateway());
  return useQuery({
    queryKey: dashboardKeys.lookup(type),
    enabled: Boolean(type),
    staleTime: 5 * 60_000,
    queryFn: () => api.lookup(type),
  });
}

function download(text: string, fileName: string) {
  downloadBlob(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }), fileName);
}

function FilterBar({
  view,
  onChange,
  ownCarrier,
}: {
  view: DashboardView;
  onChange: (change: Partial<DashboardView>) => void;
  ownCarrier: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const carriers = useLookup(ownCarrier ? undefined : 'carrier_list');
  const source = areaSource(view.area_key);
  const areaValues = useLookup(source && 'lookup' in source ? source.lookup : undefined);
  const chosen = carrierIdsOf(view);
  const carrierName = (id: number) =>
    carriers.data?.find((carrier) => String(carrier.column_id) === String(id))?.column_name ?? String(id);
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify('dashboard.link_copied', { type: 'info' });
    } catch {
      notify('dashboard.link_not_copied', { type: 'warning' });
    }
  };

  return (
    <Card component="section" aria-label={translate('dashboard.filters.title')} sx={{ mb: 2 }}>
      <CardContent>
        <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2} alignItems="flex-start">
          <Suspense fallback={<Skeleton variant="rounded" width={340} height={56} />}>
            <LocalDateField
              label={translate('dashboard.filters.from_date')}
              name="from_date"
              value={view.from_date}
              onChange={(from_date) => from_date && onChange({ from_date })}
            />
            <LocalDateField
              label={translate('dashboard.filters.to_date')}
              name="to_date"
              value={view.to_date}
              onChange={(to_date) => to_date && onChange({ to_date })}
            />
          </Suspense>
          <TextField
            select
            fullWidth={false}
            variant="outlined"
            label={translate('dashboard.filters.bucket')}
            value={BUCKETS.includes(view.bucket as never) ? view.bucket : ''}
            onChange={(event) => onChange({ bucket: event.target.value })}
            sx={{ minWidth: 140 }}
            slotProps={{ select: { inputProps: { 'data-testid': 'dashboard-bucket' } } }}
          >
            {BUCKETS.map((bucket) => (
              <MenuItem key={bucket} value={bucket}>
                {translate(`dashboard.buckets.${bucket}`)}
              </MenuItem>
            ))}
          </TextField>
          {!ownCarrier && (
            <TextField
              select
              fullWidth={false}
              variant="outlined"
              label={translate('dashboard.filters.carriers')}
              value={chosen}
              onChange={(event) => {
                const value = event.target.value as unknown as number[] | string;
                const ids = typeof value === 'string' ? value.split(',') : value;
                onChange({ carrier_ids: ids.map(String).filter(Boolean).join(',') });
              }}
              sx={{ minWidth: 220, maxWidth: 360 }}
              slotProps={{
                select: {
                  multiple: true,
                  displayEmpty: true,
                  renderValue: (selected) =>
                    (selected as number[]).length
                      ? (selected as number[]).map(carrierName).join(', ')
                      : translate('dashboard.filters.all_carriers'),
                },
                inputLabel: { shrink: true },
              }}
            >
              {(carriers.data ?? []).map((carrier) => (
                <MenuItem key={carrier.column_id} value={Number(carrier.column_id)}>
                  <Checkbox checked={chosen.includes(Number(carrier.column_id))} size="small" />
                  <ListItemText primary={carrier.column_name} />
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            select
            fullWidth={false}
            variant="outlined"
            label={translate('dashboard.filters.area_key')}
            value={Object.hasOwn(AREA_KEYS, view.area_key) ? view.area_key : ''}
            onChange={(event) => onChange({ area_key: event.target.value })}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{translate('dashboard.filters.whole_network')}</MenuItem>
            {Object.keys(AREA_KEYS).map((key) => (
              <MenuItem key={key} value={key}>
                {translate(`dashboard.area_keys.${key}`)}
              </MenuItem>
            ))}
          </TextField>
          {view.area_key && <AreaValueInput view={view} onChange={onChange} lookup={areaValues.data} source={source} />}
          <Stack direction="row" spacing={1} sx={{ alignSelf: 'center' }}>
            <Button startIcon={<LinkIcon />} onClick={() => void copyLink()}>
              {translate('dashboard.copy_link')}
            </Button>
            <Button
              startIcon={<RestartAltIcon />}
              onClick={() =>
                onChange({ ...viewFromSearch(''), carrier_ids: '', area_key: '', area_value: '', bucket: 'day' })
              }
            >
              {translate('dashboard.reset')}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

function AreaValueInput({
  view,
  onChange,
  lookup,
  source,
}: {
  view: DashboardView;
  onChange: (change: Partial<DashboardView>) => void;
  lookup: ListItem[] | undefined;
  source: ReturnType<typeof areaSource>;
}) {
  const translate = useTranslate();
  const [typed, setTyped] = useState(view.area_value);
  const label = translate('dashboard.filters.area_value');
  if (source && 'choices' in source) {
    const codes = COUNTRY_CODES;
    return (
      <TextField
        select
        fullWidth={false}
        variant="outlined"
        label={label}
        value={view.area_value}
        onChange={(event) => onChange({ area_value: event.target.value })}
        sx={{ minWidth: 180 }}
      >
        {codes.map((code) => (
          <MenuItem key={code} value={code}>
            {translate(`choices.${source.choices}.${code}`, { _: code })}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (source && 'lookup' in source) {
    return (
      <TextField
        select
        fullWidth={false}
        variant="outlined"
        label={label}
        value={lookup?.some((item) => String(item.column_id) === view.area_value) ? view.area_value : ''}
        onChange={(event) => onChange({ area_value: event.target.value })}
        sx={{ minWidth: 200 }}
      >
        {(lookup ?? []).map((item) => (
          <MenuItem key={item.column_id} value={String(item.column_id)}>
            {item.column_name}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      fullWidth={false}
      variant="outlined"
      label={label}
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      onBlur={() => typed !== view.area_value && onChange({ area_value: typed.trim() })}
      onKeyDown={(event) => event.key === 'Enter' && onChange({ area_value: typed.trim() })}
      sx={{ minWidth: 180 }}
    />
  );
}

/** The countries of the network (spec 01 §9's configured country among them), by their ISO code. */
const COUNTRY_CODES = ['DK', 'NO', 'SE', 'PL', 'FI'];

function WidgetTable({ plan, id }: { plan: WidgetPlan; id: string }) {
  return (
    // A long table scrolls inside the card: the keyboard reaches it too.
    <TableContainer sx={{ maxHeight: 300 }} tabIndex={0} role="region" aria-label={plan.title}>
      <Table size="small" stickyHeader aria-label={plan.title} data-testid={`${id}-table`}>
        <TableHead>
          <TableRow>
            {plan.table.headers.map((header, index) => (
              <TableCell key={header} align={index ? 'right' : 'left'}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {plan.table.rows.map((row) => (
            <TableRow key={row[0]}>
              {row.map((cell, index) =>
                index ? (
                  <TableCell key={index} align="right">
                    {cell}
                  </TableCell>
                ) : (
                  <TableCell key={index} component="th" scope="row">
                    {cell}
                  </TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function WidgetCard({
  name,
  data,
  error,
  pending,
  sharedError,
}: {
  name: DashboardWidget;
  data: WidgetData | undefined;
  error: unknown;
  pending: boolean;
  sharedError: string | undefined;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [shown, setShown] = useState<'chart' | 'table'>('chart');
  const plan = useMemo(() => (data ? widgetPlan(data, locale, translate) : undefined), [data, locale, translate]);
  const title = translate(`dashboard.widgets.${name}.title`);
  const headingId = `widget-${name}-title`;
  const ownError = error ? errorText(error, translate) : undefined;

  return (
    <Card component="section" aria-labelledby={headingId} data-testid={`widget-${name}`} sx={{ height: '100%' }}>
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          alignItems="flex-start"
          justifyContent="space-between"
          spacing={1}
          sx={{ mb: 1 }}
        >
          <Box>
            <Typography variant="h6" component="h2" id={headingId}>
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate(`dashboard.widgets.${name}.description`)}
            </Typography>
          </Box>
          {plan && !plan.empty && (
            <Stack direction="row" spacing={1} alignItems="center" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
              <ButtonGroup size="small" role="group" aria-label={translate('dashboard.view_as', { title })}>
                {(['chart', 'table'] as const).map((view) => (
                  <Button
                    key={view}
                    aria-pressed={shown === view}
                    variant={shown === view ? 'contained' : 'outlined'}
                    onClick={() => setShown(view)}
                  >
                    {translate(`dashboard.${view}`)}
                  </Button>
                ))}
              </ButtonGroup>
              <Button
                size="small"
                startIcon={<DownloadIcon />}
                aria-label={translate('dashboard.export_csv_of', { title })}
                onClick={() => download(plan.csv(), exportFileName(title, new Date()))}
              >
                {translate('dashboard.export_csv')}
              </Button>
            </Stack>
          )}
        </Stack>
        {pending && (
          <Box aria-busy="true" aria-label={translate('dashboard.states.loading', { title })}>
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="rounded" height={200} />
          </Box>
        )}
        {!pending && ownError && sharedError === ownError && (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            {translate('dashboard.states.see_filters')}
          </Typography>
        )}
        {!pending && ownError && sharedError !== ownError && <Alert severity="error">{ownError}</Alert>}
        {plan && (
          <>
            <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap" component="dl" sx={{ m: 0, mb: 1 }}>
              {plan.headline.map((figure) => (
                <Box key={figure.label}>
                  <Typography component="dt" variant="caption" color="text.secondary">
                    {figure.label}
                  </Typography>
                  <Typography component="dd" variant="h5" sx={{ m: 0 }}>
                    {figure.value}
                  </Typography>
                </Box>
              ))}
            </Stack>
            {plan.empty ? (
              <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
                {translate('dashboard.states.empty')}
              </Typography>
            ) : shown === 'chart' ? (
              <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
                <WidgetChart plan={plan.chart} label={translate('dashboard.chart_of', { title })} />
              </Suspense>
            ) : (
              <WidgetTable plan={plan} id={`widget-${name}`} />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The dashboard (spec 02 §2): the seven widgets of `webtool/dashboard/widget` for the view in the URL
 * (period, bucket, carriers, area), so that a link opens the same view for another user. The home of
 * every user with permission 177 (spec 01 §2.3).
 */
export function DashboardPage() {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const api = dashboardApi(useGateway());
  const profile = useProfile();
  const view = useMemo(() => viewFromSearch(location.search), [location.search]);
  const ownCarrier = profile?.partnerType === 'carrier' && !profile.superAdmin;
  const onChange = (change: Partial<DashboardView>) =>
    navigate({ pathname: '/dashboard', search: searchOfView(changedView(view, change)) });

  const queries = useQueries({
    queries: DASHBOARD_WIDGETS.map((name) => ({
      queryKey: dashboardKeys.widget(name, view),
      // A refusal (4xx) stays one; a failure of the network is tried once more.
      retry: (count: number, error: unknown) => count < 1 && ((error as CallError).status ?? 0) < 400,
      queryFn: ({ signal }: { signal: AbortSignal }) => api.widget(name, view, signal),
    })),
  });
  // A filter the gateway refuses fails every widget alike: its message is shown once, by the filters. Whether a
  // refusal is shared is known once every widget has answered: until then a refused widget waits with the others
  // (`answered`), rather than showing its own message for a moment (on a busy machine the answers come seconds apart).
  const answered = queries.every((query) => query.error || !query.isPending);
  const messages = queries.map((query) => (query.error ? errorText(query.error, translate) : undefined));
  const sharedError = messages.every((message) => message && message === messages[0]) ? messages[0] : undefined;

  return (
    <Box sx={{ py: 2 }}>
      <Title title={translate('dashboard.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('dashboard.title')}
      </Typography>
      <FilterBar view={view} onChange={onChange} ownCarrier={ownCarrier} />
      {sharedError && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {sharedError}
        </Alert>
      )}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {DASHBOARD_WIDGETS.map((name, index) => (
          <WidgetCard
            key={name}
            name={name}
            data={queries[index].data}
            error={queries[index].error}
            pending={queries[index].error ? !answered : queries[index].isPending}
            sharedError={sharedError}
          />
        ))}
      </Box>
    </Box>
  );
}
