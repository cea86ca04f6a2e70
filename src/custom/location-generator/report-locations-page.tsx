import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
  MenuItem,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { centreOf } from '../../schema/ui/address/map-settings.ts';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';
import {
  GENERATOR,
  generatorKeys,
  isBusy,
  STATUS_COLOURS,
  useGeneratorCall,
  type ReportPage,
} from './generator-api.ts';

/** The score's parts as columns from a tablet up; on a phone they read under the address. */
const WIDE = { display: { xs: 'none', md: 'table-cell' } } as const;

const LOCATION_OWNERS = 'webtool/lists?type=location_owners';
const GeneratorMap = lazy(() => import('./generator-map.tsx'));

/**
 * `/location-generator/locations?report=` (issue 29.4, 29.5): a report's candidate locations on a map and
 * in a table side by side (stacked on a phone), one selection for both; the selected ones converted to
 * service points in bulk, the conversion's progress polled until it ends.
 */
export function ReportLocationsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const call = useGeneratorCall();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const [params] = useSearchParams();
  const reportId = params.get('report') ?? '';
  const [selected, setSelected] = useState<number[]>([]);
  const [confirming, setConfirming] = useState(false);
  // The location owner of the created service points (optional; the gateway's default otherwise).
  const [owner, setOwner] = useState('');
  const owners = useLookupChoices(LOCATION_OWNERS);
  const number = (value: number, digits = 0) =>
    value.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });

  const page = useQuery({
    queryKey: generatorKeys.locations(reportId),
    enabled: /^\d+$/.test(reportId),
    queryFn: async () =>
      (
        await call<{ data: ReportPage }>({
          method: 'GET',
          path: `${GENERATOR}/locations`,
          query: { report_id: reportId },
        })
      ).data,
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && (isBusy(data.report.status) || isBusy(data.conversion?.status)) ? 1000 : false;
    },
  });
  const convert = useMutation({
    mutationFn: () =>
      call({
        method: 'POST',
        path: `${GENERATOR}/service_point`,
        body: {
          report_id: Number(reportId),
          location_ids: selected,
          ...(owner !== '' && { location_owner_id: Number(owner) }),
        },
      }),
    onSuccess: async () => {
      setConfirming(false);
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey: generatorKeys.locations(reportId) });
    },
    onError: (error: Error) => {
      setConfirming(false);
      notify(error.message, { type: 'error' });
    },
  });

  const data = page.data;
  const toggle = (id: number) =>
    setSelected((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  const locations = data?.locations ?? [];
  const allSelected = locations.length > 0 && selected.length === locations.length;
  const conversion = data?.conversion;
  const busy = isBusy(conversion?.status);
  const metres = (value: number | null) => (value === null ? translate('location_generator.none_near') : number(value));

  return (
    <Box sx={{ p: { xs: 1.5, md: 2 } }}>
      <Title title={data?.report.name ?? translate('location_generator.locations')} />
      {page.isError && <Alert severity="error">{(page.error as Error).message}</Alert>}
      {data && (
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
            <Typography variant="h5" component="h1">
              {data.report.name}
            </Typography>
            <Chip
              color={STATUS_COLOURS[data.report.status]}
              label={translate(`location_generator.statuses.${data.report.status}`)}
              data-testid="report-status"
            />
            <Box sx={{ flex: 1 }} />
            <Typography variant="body2" color="text.secondary">
              {translate('location_generator.selected', { count: selected.length })}
            </Typography>
            <Button
              variant="contained"
              disabled={!selected.length || busy || data.report.status !== 'finished'}
              onClick={() => setConfirming(true)}
            >
              {translate('location_generator.convert')}
            </Button>
          </Stack>
          {isBusy(data.report.status) && (
            <Box>
              <Typography variant="body2">{translate('location_generator.report_running')}</Typography>
              <LinearProgress />
            </Box>
          )}
          {data.report.status === 'failed' && (
            <Alert severity="error">
              {translate('location_generator.report_failed', { message: data.report.message ?? '' })}
            </Alert>
          )}
          {conversion && (
            <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="conversion">
              <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
                <Typography variant="subtitle2">{translate('location_generator.conversion')}</Typography>
                <Chip
                  size="small"
                  color={STATUS_COLOURS[conversion.status]}
                  label={translate(`location_generator.statuses.${conversion.status}`)}
                  data-testid="conversion-status"
                />
                <Typography variant="body2">
                  {translate('location_generator.conversion_progress', {
                    done: conversion.results.filter((result) => result.status === 'converted').length,
                    total: conversion.total,
                  })}
                </Typography>
              </Stack>
              <LinearProgress
                variant="determinate"
                value={conversion.total ? (100 * conversion.done) / conversion.total : 0}
                sx={{ mt: 1 }}
                aria-label={translate('location_generator.conversion')}
              />
            </Paper>
          )}
          <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} alignItems="flex-start">
            <Box sx={{ width: { xs: '100%', lg: '42%' }, position: { lg: 'sticky' }, top: { lg: 8 } }}>
              <Suspense fallback={<Box sx={{ height: 520 }} />}>
                <GeneratorMap
                  label={translate('location_generator.report_map')}
                  regions={data.regions.map((region) => ({
                    key: `${region.kind}-${region.id}`,
                    kind: region.kind,
                    name: region.name,
                    geometry: region.geometry,
                    chosen: true,
                  }))}
                  points={locations.map((location) => ({
                    id: location.location_id,
                    latitude: location.latitude,
                    longitude: location.longitude,
                    label: `${location.rank}. ${location.label} (${number(location.score, 1)})`,
                    selected: selected.includes(location.location_id),
                    converted: location.conversion_status === 'converted',
                  }))}
                  onTogglePoint={toggle}
                  centre={[centreOf(data.report.country)[0], centreOf(data.report.country)[1]]}
                  height={{ xs: 360, lg: 560 }}
                />
              </Suspense>
            </Box>
            <TableContainer component={Paper} variant="outlined" sx={{ flex: 1, width: '100%', minWidth: 0 }}>
              <Table size="small" aria-label={translate('location_generator.locations')}>
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={allSelected}
                        indeterminate={selected.length > 0 && !allSelected}
                        onChange={() => setSelected(allSelected ? [] : locations.map((l) => l.location_id))}
                        inputProps={{ 'aria-label': translate('location_generator.select_all') }}
                      />
                    </TableCell>
                    <TableCell sx={WIDE}>{translate('location_generator.rank')}</TableCell>
                    <TableCell>{translate('location_generator.address')}</TableCell>
                    <TableCell sx={WIDE}>{translate('location_generator.zone')}</TableCell>
                    <TableCell align="right">{translate('location_generator.score')}</TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {translate('location_generator.population')}
                    </TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {translate('location_generator.population_part')}
                    </TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {translate('location_generator.competitor_m')}
                    </TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {translate('location_generator.competition_part')}
                    </TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {translate('location_generator.service_point_m')}
                    </TableCell>
                    <TableCell>{translate('location_generator.service_point')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {locations.map((location) => {
                    const isSelected = selected.includes(location.location_id);
                    return (
                      <TableRow
                        key={location.location_id}
                        hover
                        selected={isSelected}
                        onClick={() => toggle(location.location_id)}
                        sx={{ cursor: 'pointer' }}
                        data-testid="generator-location-row"
                        aria-selected={isSelected}
                      >
                        <TableCell padding="checkbox">
                          <Checkbox
                            checked={isSelected}
                            onClick={(event) => event.stopPropagation()}
                            onChange={() => toggle(location.location_id)}
                            inputProps={{ 'aria-label': location.label }}
                          />
                        </TableCell>
                        <TableCell sx={WIDE}>{location.rank}</TableCell>
                        <TableCell sx={{ px: { xs: 0.5, md: 2 } }}>
                          <Box component="span" sx={{ display: { md: 'none' } }}>
                            {location.rank}.{' '}
                          </Box>
                          {location.label}
                          {/* On a phone the score's parts read under the address instead of six more columns. */}
                          <Typography
                            variant="caption"
                            color="text.secondary"
                            component="div"
                            sx={{ display: { xs: 'block', md: 'none' } }}
                          >
                            {[
                              location.zone_name,
                              `${translate('location_generator.population')} ${number(location.parts.population)}`,
                              `${translate('location_generator.competitor_m')} ${metres(location.parts.nearest_competitor_m)}`,
                              `${translate('location_generator.service_point_m')} ${metres(location.parts.nearest_service_point_m)}`,
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                          </Typography>
                        </TableCell>
                        <TableCell sx={WIDE}>{location.zone_name ?? '—'}</TableCell>
                        <TableCell align="right">{number(location.score, 1)}</TableCell>
                        <TableCell align="right" sx={WIDE}>
                          {number(location.parts.population)}
                        </TableCell>
                        <TableCell align="right" sx={WIDE}>
                          {number(location.parts.population_part, 2)}
                        </TableCell>
                        <TableCell align="right" sx={WIDE}>
                          {metres(location.parts.nearest_competitor_m)}
                        </TableCell>
                        <TableCell align="right" sx={WIDE}>
                          {number(location.parts.competition_part, 2)}
                        </TableCell>
                        <TableCell align="right" sx={WIDE}>
                          {metres(location.parts.nearest_service_point_m)}
                        </TableCell>
                        <TableCell onClick={(event) => event.stopPropagation()} sx={{ px: { xs: 0.5, md: 2 } }}>
                          {location.conversion_status === 'converted' && location.service_point_id !== null ? (
                            <Link to={`/service-points/${location.service_point_id}/show`}>
                              {translate('location_generator.statuses.converted')} #{location.service_point_id}
                            </Link>
                          ) : location.conversion_status === 'failed' ? (
                            <Chip
                              size="small"
                              color="error"
                              variant="outlined"
                              label={translate(location.conversion_message ?? 'catalogue.generator_conversion_error', {
                                name: location.label,
                              })}
                            />
                          ) : (
                            '—'
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          </Stack>
        </Stack>
      )}
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="convert-title">
        <DialogTitle id="convert-title">{translate('location_generator.convert')}</DialogTitle>
        <DialogContent>
          <Typography>{translate('location_generator.convert_confirm', { count: selected.length })}</Typography>
          <TextField
            select
            fullWidth
            size="small"
            sx={{ mt: 2 }}
            label={translate('location_generator.location_owner')}
            value={owner}
            onChange={(event) => setOwner(event.target.value)}
          >
            <MenuItem value="">—</MenuItem>
            {owners.map((choice) => (
              <MenuItem key={choice.id} value={String(choice.id)}>
                {choice.name}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" onClick={() => convert.mutate()} disabled={convert.isPending}>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Box sx={{ mt: 2 }}>
        <Button component={Link} to="/location-generator">
          {translate('location_generator.reports')}
        </Button>
      </Box>
    </Box>
  );
}
