import { lazy, Suspense, useMemo } from 'react';
import { Alert, Box, Button, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import ListIcon from '@mui/icons-material/ViewList';
import { useQuery } from '@tanstack/react-query';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { Link, useSearchParams } from 'react-router-dom';
import { servicePointMapApi, servicePointMapKeys } from './api.ts';
import { COUNTRY_CENTRES, centreOf } from '../../schema/ui/address/map-settings.ts';
import { ServicePointStatus } from '../../types/generated/codes.ts';
import { STATUS_COLOURS } from './map-clusters.ts';
import type { NetworkMapProps } from './network-map.tsx';

const NetworkMap = lazy(() => import('./network-map.tsx'));

/** The list's filters as react-admin keeps them in the URL (`?filter={"status":7}`), shared by list and map. */
function useUrlFilter() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => {
    try {
      const parsed = JSON.parse(params.get('filter') ?? '{}') as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }, [params]);
  const set = (key: string, value: unknown) => {
    const next = { ...filter };
    if (value === '' || value === undefined) delete next[key];
    else next[key] = value;
    setParams(Object.keys(next).length ? { filter: JSON.stringify(next) } : {}, { replace: true });
  };
  return [filter, set] as const;
}

/** The filter values the gateway reads as the list's (scalars; the list's other shapes are left out). */
const gatewayFilters = (filter: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(filter)
      .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value) && value !== '')
      .map(([key, value]) => [key === 'q' ? 'search' : key, String(value)]),
  );

const STATUSES = Object.values(ServicePointStatus);

/**
 * `/service-points/map` (issue 31.3): the network map of every service point the user's list shows, with
 * the list's filters (the same URL), clusters with counts, status colours and open work in a legend that
 * says each mark in words, and a popup per point opening it. Reached from the list's head ("Map").
 */
export function ServicePointMapPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const api = servicePointMapApi(useGateway());
  const [filter, setFilter] = useUrlFilter();
  const query = gatewayFilters(filter);
  const countryName = useMemo(() => new Intl.DisplayNames([locale], { type: 'region' }), [locale]);
  const points = useQuery({
    queryKey: servicePointMapKeys.points(query),
    queryFn: () => api.points(query),
    placeholderData: (previous) => previous,
  });
  const statusName = (status: number | null) =>
    status === null ? '—' : translate(`choices.service_point_status.${status}`);
  const words: NetworkMapProps['words'] = {
    status: statusName,
    cluster: (count, busy) => translate('service_points.network_map.cluster', { count, busy }),
    alerts: (count) => translate('service_points.network_map.open_alerts', { smart_count: count }),
    tickets: (count) => translate('service_points.network_map.open_tickets', { smart_count: count }),
    open: translate('service_points.network_map.open_point'),
  };
  const data = points.data ?? [];
  const listLink = `/service-points${Object.keys(filter).length ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`;
  const country = typeof filter.country === 'string' ? filter.country : '';

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Title title={translate('service_points.network_map.title')} />
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ mb: 1.5 }}>
        <TextField
          select
          size="small"
          fullWidth={false}
          sx={{ width: { xs: 'calc(50% - 4px)', sm: 180 } }}
          label={translate('resources.service-points.fields.status')}
          value={filter.status === undefined ? '' : String(filter.status)}
          onChange={(event) => setFilter('status', event.target.value === '' ? '' : Number(event.target.value))}
        >
          <MenuItem value="">{translate('service_points.network_map.all')}</MenuItem>
          {STATUSES.map((status) => (
            <MenuItem key={status} value={String(status)}>
              {statusName(status)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          fullWidth={false}
          sx={{ width: { xs: 'calc(50% - 4px)', sm: 170 } }}
          label={translate('resources.service-points.fields.country')}
          value={country}
          onChange={(event) => setFilter('country', event.target.value)}
        >
          <MenuItem value="">{translate('service_points.network_map.all')}</MenuItem>
          {Object.keys(COUNTRY_CENTRES).map((code) => (
            <MenuItem key={code} value={code}>
              {countryName.of(code) ?? code}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="search"
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 220 } }}
          label={translate('ra.action.search')}
          defaultValue={typeof filter.q === 'string' ? filter.q : ''}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilter('q', (event.target as HTMLInputElement).value.trim());
          }}
          onBlur={(event) => setFilter('q', event.target.value.trim())}
        />
        <Box sx={{ flex: 1 }} />
        <Typography variant="body2" color="text.secondary" data-testid="network-map-count">
          {translate('service_points.network_map.count', { smart_count: data.length })}
        </Typography>
        <Button component={Link} to={listLink} startIcon={<ListIcon />} variant="outlined" size="small">
          {translate('service_points.network_map.list')}
        </Button>
      </Stack>
      {points.isFetching && <LinearProgress sx={{ mb: 0.5 }} aria-label={translate('ra.page.loading')} />}
      {points.isError && <Alert severity="error">{(points.error as Error).message}</Alert>}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={1.5} alignItems="stretch">
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Box sx={{ height: 480 }} />}>
            <NetworkMap
              label={translate('service_points.network_map.title')}
              points={data}
              centre={[centreOf(country || undefined)[0], centreOf(country || undefined)[1]]}
              words={words}
            />
          </Suspense>
        </Box>
        <Paper
          variant="outlined"
          sx={{ p: 1.5, width: { lg: 230 }, flexShrink: 0 }}
          component="aside"
          aria-labelledby="network-legend"
        >
          <Typography variant="subtitle2" id="network-legend" gutterBottom>
            {translate('service_points.network_map.legend')}
          </Typography>
          <Box
            component="ul"
            sx={{ listStyle: 'none', m: 0, p: 0, display: { xs: 'flex', lg: 'block' }, flexWrap: 'wrap', gap: 1 }}
          >
            {STATUSES.map((status) => (
              <Box component="li" key={status} sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mb: 0.5 }}>
                <Box
                  component="span"
                  sx={{
                    width: 12,
                    height: 12,
                    borderRadius: '50%',
                    bgcolor: STATUS_COLOURS[status],
                    border: '1px solid #fff',
                    boxShadow: '0 0 0 1px #999',
                  }}
                />
                <Typography variant="caption">{statusName(status)}</Typography>
              </Box>
            ))}
            <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mb: 0.5 }}>
              <Box
                component="span"
                sx={{
                  width: 12,
                  height: 12,
                  transform: 'rotate(45deg)',
                  border: '2px solid #c62828',
                  bgcolor: '#2e7d32',
                  fontSize: 8,
                  color: '#fff',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                <Box component="b" sx={{ transform: 'rotate(-45deg)' }}>
                  !
                </Box>
              </Box>
              <Typography variant="caption">{translate('service_points.network_map.legend_busy')}</Typography>
            </Box>
            <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
              <Box
                component="span"
                sx={{
                  minWidth: 22,
                  height: 22,
                  borderRadius: '50%',
                  bgcolor: 'rgba(21,101,192,.85)',
                  color: '#fff',
                  fontSize: 10,
                  fontWeight: 600,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                12
              </Box>
              <Typography variant="caption">{translate('service_points.network_map.legend_cluster')}</Typography>
            </Box>
          </Box>
        </Paper>
      </Stack>
    </Box>
  );
}
