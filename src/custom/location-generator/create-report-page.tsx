import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { LatLngTuple } from 'leaflet';
import { COUNTRY_CENTRES, centreOf } from '../../schema/ui/address/map-settings.ts';
import { GENERATOR, generatorKeys, useGeneratorCall, type Area, type Criteria, type Zone } from './generator-api.ts';
import type { MapRegion } from './generator-map.tsx';

const GeneratorMap = lazy(() => import('./generator-map.tsx'));

const DEFAULTS: Criteria = { radius_m: 500, min_distance_m: 400, max_candidates: 20, population_weight: 0.7 };
type FieldErrors = Record<string, { message: string; args?: Record<string, unknown> }>;
const fieldErrorsOf = (error: unknown): FieldErrors =>
  ((error as { body?: { errors?: FieldErrors } }).body?.errors ?? {}) as FieldErrors;

/**
 * `/location-generator/create-report` (issue 29.4): the areas and their zones on a map, drawn vertex by
 * vertex or (an area) taken from a municipality, and a report over the chosen ones with its criteria.
 */
export function CreateReportPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const call = useGeneratorCall();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const countryName = useMemo(() => new Intl.DisplayNames([locale], { type: 'region' }), [locale]);

  const areas = useQuery({
    queryKey: generatorKeys.areas(),
    queryFn: async () => (await call<{ data: Area[] }>({ method: 'GET', path: `${GENERATOR}/areas` })).data,
  });
  const zones = useQuery({
    queryKey: generatorKeys.zones(),
    queryFn: async () => (await call<{ data: Zone[] }>({ method: 'GET', path: `${GENERATOR}/zones` })).data,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: generatorKeys.all() });

  // What is being drawn: a new area (country, name or municipality) or a zone of an area.
  const [mode, setMode] = useState<'area' | 'zone'>('area');
  const [drawing, setDrawing] = useState<LatLngTuple[]>([]);
  const [shapeName, setShapeName] = useState('');
  const [country, setCountry] = useState('DK');
  const [municipality, setMunicipality] = useState('');
  const [zoneArea, setZoneArea] = useState<number | ''>('');
  const [shapeErrors, setShapeErrors] = useState<FieldErrors>({});
  // A refusal of the whole shape (a zone outside its area), shown in the form.
  const [shapeRefusal, setShapeRefusal] = useState<string>();
  // The area or zone being edited (renamed, its vertices dragged or redrawn); none while a new one is drawn.
  const [editing, setEditing] = useState<{ kind: 'area' | 'zone'; id: number; version: number }>();
  const [toDelete, setToDelete] = useState<{ kind: 'areas' | 'zones'; id: number; name: string }>();
  const resetShape = () => {
    setEditing(undefined);
    setDrawing([]);
    setShapeName('');
    setMunicipality('');
    setShapeErrors({});
    setShapeRefusal(undefined);
  };
  const startEditing = (kind: 'area' | 'zone', shape: Area | Zone) => {
    const ring = shape.geometry.coordinates[0];
    setMode(kind);
    setEditing({
      kind,
      id: kind === 'area' ? (shape as Area).area_id : (shape as Zone).zone_id,
      version: shape.version,
    });
    setShapeName(shape.name);
    // The ring's closing vertex repeats the first: the drawing holds each corner once.
    setDrawing(ring.slice(0, -1).map(([lng, lat]): LatLngTuple => [lat, lng]));
    setMunicipality('');
    setShapeErrors({});
    setShapeRefusal(undefined);
    if (kind === 'zone') setZoneArea((shape as Zone).area_id);
  };

  const municipalities = useQuery({
    queryKey: generatorKeys.municipalities(country),
    queryFn: async () =>
      (
        await call<{ data: { column_id: number; column_name: string }[] }>({
          method: 'GET',
          path: 'webtool/lists',
          query: { type: 'municipality', country_iso: country },
        })
      ).data,
  });

  const saveShape = useMutation({
    mutationFn: async () => {
      const geometry = {
        type: 'Polygon',
        coordinates: [drawing.map(([lat, lng]) => [lng, lat])],
      };
      if (editing) {
        return call({
          method: 'PATCH',
          path: `${GENERATOR}/${editing.kind}s`,
          body: {
            [editing.kind === 'area' ? 'area_id' : 'zone_id']: editing.id,
            name: shapeName,
            geometry,
            version: editing.version,
          },
        });
      }
      if (mode === 'area') {
        return call({
          method: 'POST',
          path: `${GENERATOR}/areas`,
          body: municipality
            ? { name: shapeName, country, municipality_id: Number(municipality) }
            : { name: shapeName, country, geometry },
        });
      }
      return call({
        method: 'POST',
        path: `${GENERATOR}/zones`,
        body: { area_id: zoneArea, name: shapeName, geometry },
      });
    },
    onSuccess: async () => {
      notify(
        translate(mode === 'area' ? 'location_generator.area_saved' : 'location_generator.zone_saved', {
          name: shapeName,
        }),
        {
          type: 'success',
        },
      );
      resetShape();
      await refresh();
    },
    onError: (error: Error) => {
      const fields = fieldErrorsOf(error);
      setShapeErrors(fields);
      setShapeRefusal(Object.keys(fields).length ? undefined : error.message);
      notify(error.message, { type: 'error' });
    },
  });

  const remove = useMutation({
    mutationFn: (target: { kind: 'areas' | 'zones'; id: number }) =>
      call({
        method: 'DELETE',
        path: `${GENERATOR}/${target.kind}`,
        body: target.kind === 'areas' ? { area_id: target.id } : { zone_id: target.id },
      }),
    onSuccess: async (_, target) => {
      notify('location_generator.deleted', { type: 'info' });
      setToDelete(undefined);
      if (editing && `${editing.kind}s` === target.kind && editing.id === target.id) resetShape();
      setChosenAreas((list) => (target.kind === 'areas' ? list.filter((id) => id !== target.id) : list));
      setChosenZones((list) => (target.kind === 'zones' ? list.filter((id) => id !== target.id) : list));
      await refresh();
    },
    onError: (error: Error) => {
      setToDelete(undefined);
      notify(error.message, { type: 'error' });
    },
  });

  // The report: chosen areas and zones, criteria.
  const [chosenAreas, setChosenAreas] = useState<number[]>([]);
  const [chosenZones, setChosenZones] = useState<number[]>([]);
  const [reportName, setReportName] = useState('');
  const [criteria, setCriteria] = useState<Record<keyof Criteria, string>>({
    radius_m: String(DEFAULTS.radius_m),
    min_distance_m: String(DEFAULTS.min_distance_m),
    max_candidates: String(DEFAULTS.max_candidates),
    population_weight: String(DEFAULTS.population_weight),
  });
  const [reportErrors, setReportErrors] = useState<FieldErrors>({});
  const generate = useMutation({
    mutationFn: () =>
      call<{ data: { report_id: number } }>({
        method: 'POST',
        path: `${GENERATOR}/reports`,
        body: {
          name: reportName,
          area_ids: chosenAreas,
          zone_ids: chosenZones.filter((id) =>
            chosenAreas.includes(zones.data?.find((z) => z.zone_id === id)?.area_id ?? -1),
          ),
          criteria: Object.fromEntries(
            Object.entries(criteria).map(([key, value]) => [key, value === '' ? undefined : Number(value)]),
          ),
        },
      }),
    onSuccess: (answer) => {
      notify(translate('location_generator.report_queued', { name: reportName }), { type: 'info' });
      navigate(`/location-generator/locations?report=${answer.data.report_id}`);
    },
    onError: (error: Error) => {
      setReportErrors(fieldErrorsOf(error));
      notify(error.message, { type: 'error' });
    },
  });

  const regions: MapRegion[] = [
    ...(areas.data ?? []).map((area) => ({
      key: `area-${area.area_id}`,
      kind: 'area' as const,
      name: area.name,
      geometry: area.geometry,
      chosen: chosenAreas.includes(area.area_id),
    })),
    ...(zones.data ?? []).map((zone) => ({
      key: `zone-${zone.zone_id}`,
      kind: 'zone' as const,
      name: zone.name,
      geometry: zone.geometry,
      chosen: chosenZones.includes(zone.zone_id),
    })),
  ];
  const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const submitShape = (event: FormEvent) => {
    event.preventDefault();
    saveShape.mutate();
  };
  const submitReport = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate();
  };
  const errorText = (errors: FieldErrors, field: string) =>
    errors[field] ? translate(errors[field].message, errors[field].args) : undefined;

  return (
    <Box sx={{ p: { xs: 1.5, md: 2 } }}>
      <Title title={translate('location_generator.create_report')} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="stretch">
        <Stack spacing={2} sx={{ width: { xs: '100%', md: 380 }, flexShrink: 0 }}>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="generator-areas-title">
            <Typography variant="h6" id="generator-areas-title" gutterBottom>
              {translate('location_generator.areas')}
            </Typography>
            {areas.data?.length === 0 && <Alert severity="info">{translate('location_generator.no_areas')}</Alert>}
            {(areas.data ?? []).map((area) => (
              <Box key={area.area_id}>
                <Stack direction="row" alignItems="center">
                  <FormControlLabel
                    sx={{ flex: 1 }}
                    control={
                      <Checkbox
                        checked={chosenAreas.includes(area.area_id)}
                        onChange={() => setChosenAreas((list) => toggle(list, area.area_id))}
                      />
                    }
                    label={`${area.name} (${countryName.of(area.country) ?? area.country})`}
                  />
                  <Tooltip title={translate('location_generator.edit_area')}>
                    <IconButton
                      aria-label={`${translate('location_generator.edit_area')}: ${area.name}`}
                      onClick={() => startEditing('area', area)}
                      size="small"
                    >
                      <EditOutlinedIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={translate('location_generator.delete_area')}>
                    <IconButton
                      aria-label={`${translate('location_generator.delete_area')}: ${area.name}`}
                      onClick={() => setToDelete({ kind: 'areas', id: area.area_id, name: area.name })}
                      size="small"
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Stack>
                {(zones.data ?? [])
                  .filter((zone) => zone.area_id === area.area_id)
                  .map((zone) => (
                    <Stack direction="row" alignItems="center" key={zone.zone_id} sx={{ pl: 4 }}>
                      <FormControlLabel
                        sx={{ flex: 1 }}
                        control={
                          <Checkbox
                            size="small"
                            checked={chosenZones.includes(zone.zone_id)}
                            disabled={!chosenAreas.includes(area.area_id)}
                            onChange={() => setChosenZones((list) => toggle(list, zone.zone_id))}
                          />
                        }
                        label={`${translate('location_generator.zone')}: ${zone.name}`}
                      />
                      <Tooltip title={translate('location_generator.edit_zone')}>
                        <IconButton
                          aria-label={`${translate('location_generator.edit_zone')}: ${zone.name}`}
                          onClick={() => startEditing('zone', zone)}
                          size="small"
                        >
                          <EditOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={translate('location_generator.delete_zone')}>
                        <IconButton
                          aria-label={`${translate('location_generator.delete_zone')}: ${zone.name}`}
                          onClick={() => setToDelete({ kind: 'zones', id: zone.zone_id, name: zone.name })}
                          size="small"
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </Stack>
                  ))}
              </Box>
            ))}
          </Paper>

          <Paper
            variant="outlined"
            sx={{ p: 2 }}
            component="form"
            onSubmit={submitShape}
            aria-labelledby="generator-draw-title"
          >
            <Typography variant="h6" id="generator-draw-title" gutterBottom>
              {editing
                ? translate(editing.kind === 'area' ? 'location_generator.edit_area' : 'location_generator.edit_zone')
                : translate(mode === 'area' ? 'location_generator.new_area' : 'location_generator.new_zone')}
            </Typography>
            <Stack spacing={1.5}>
              <TextField
                select
                size="small"
                label={translate('location_generator.shape_kind')}
                value={mode}
                disabled={Boolean(editing)}
                onChange={(event) => setMode(event.target.value as 'area' | 'zone')}
              >
                <MenuItem value="area">{translate('location_generator.area')}</MenuItem>
                <MenuItem value="zone">{translate('location_generator.zone')}</MenuItem>
              </TextField>
              <TextField
                size="small"
                required
                label={translate('location_generator.name')}
                value={shapeName}
                onChange={(event) => setShapeName(event.target.value)}
                error={Boolean(shapeErrors.name)}
                helperText={errorText(shapeErrors, 'name')}
              />
              {editing ? (
                <Typography variant="body2" color="text.secondary">
                  {translate('location_generator.edit_hint')}
                </Typography>
              ) : mode === 'area' ? (
                <>
                  <TextField
                    select
                    size="small"
                    label={translate('location_generator.country')}
                    value={country}
                    onChange={(event) => {
                      setCountry(event.target.value);
                      setMunicipality('');
                    }}
                  >
                    {Object.keys(COUNTRY_CENTRES).map((code) => (
                      <MenuItem key={code} value={code}>
                        {countryName.of(code) ?? code}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    select
                    size="small"
                    label={translate('location_generator.municipality')}
                    value={municipality}
                    onChange={(event) => setMunicipality(event.target.value)}
                    error={Boolean(shapeErrors.municipality_id)}
                    helperText={errorText(shapeErrors, 'municipality_id')}
                  >
                    <MenuItem value="">—</MenuItem>
                    {(municipalities.data ?? []).map((item) => (
                      <MenuItem key={item.column_id} value={String(item.column_id)}>
                        {item.column_name}
                      </MenuItem>
                    ))}
                  </TextField>
                </>
              ) : (
                <TextField
                  select
                  size="small"
                  required
                  label={translate('location_generator.area')}
                  value={zoneArea}
                  onChange={(event) => setZoneArea(Number(event.target.value))}
                >
                  {(areas.data ?? []).map((area) => (
                    <MenuItem key={area.area_id} value={area.area_id}>
                      {area.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {mode === 'area' && !editing && (
                <Typography variant="body2" color="text.secondary">
                  {translate('location_generator.draw_or_municipality')}
                </Typography>
              )}
              {!(mode === 'area' && municipality) && (
                <Typography variant="body2" color="text.secondary" data-testid="draw-hint">
                  {translate('location_generator.draw_hint', { count: drawing.length })}
                </Typography>
              )}
              {shapeRefusal && (
                <Alert severity="error" data-testid="shape-refusal">
                  {shapeRefusal}
                </Alert>
              )}
              <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
                <Button type="submit" variant="contained" disabled={saveShape.isPending}>
                  {translate(mode === 'area' ? 'location_generator.save_area' : 'location_generator.save_zone')}
                </Button>
                <Button onClick={() => setDrawing((points) => points.slice(0, -1))} disabled={!drawing.length}>
                  {translate('location_generator.undo_point')}
                </Button>
                <Button onClick={() => setDrawing([])} disabled={!drawing.length}>
                  {translate(editing ? 'location_generator.redraw' : 'location_generator.clear_drawing')}
                </Button>
                {editing && <Button onClick={resetShape}>{translate('ra.action.cancel')}</Button>}
              </Stack>
            </Stack>
          </Paper>
        </Stack>

        <Stack spacing={2} sx={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Box sx={{ height: 480 }} />}>
            <GeneratorMap
              label={translate('location_generator.map_label')}
              regions={regions}
              drawing={drawing}
              onDrawPoint={(point) => setDrawing((points) => [...points, point])}
              onMoveVertex={(index, point) =>
                setDrawing((points) => points.map((vertex, at) => (at === index ? point : vertex)))
              }
              centre={[centreOf(country)[0], centreOf(country)[1]]}
            />
          </Suspense>
          <Paper
            variant="outlined"
            sx={{ p: 2 }}
            component="form"
            onSubmit={submitReport}
            aria-labelledby="generator-report-title"
          >
            <Typography variant="h6" id="generator-report-title" gutterBottom>
              {translate('location_generator.criteria')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              {translate('location_generator.choose_areas')}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(5, 1fr)' },
              }}
            >
              <TextField
                size="small"
                required
                label={translate('location_generator.report_name')}
                value={reportName}
                onChange={(event) => setReportName(event.target.value)}
                error={Boolean(reportErrors.name)}
                helperText={errorText(reportErrors, 'name')}
              />
              {(Object.keys(DEFAULTS) as (keyof Criteria)[]).map((key) => (
                <TextField
                  key={key}
                  size="small"
                  type="number"
                  label={translate(`location_generator.${key}`)}
                  value={criteria[key]}
                  onChange={(event) => setCriteria((values) => ({ ...values, [key]: event.target.value }))}
                  slotProps={{ htmlInput: { step: key === 'population_weight' ? 0.1 : 1 } }}
                  error={Boolean(reportErrors[key])}
                  helperText={errorText(reportErrors, key)}
                />
              ))}
            </Box>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              {translate('location_generator.competition_weight')}
            </Typography>
            <Divider sx={{ my: 1.5 }} />
            <Button type="submit" variant="contained" disabled={generate.isPending}>
              {translate('location_generator.generate')}
            </Button>
          </Paper>
        </Stack>
      </Stack>
      <Confirm
        isOpen={Boolean(toDelete)}
        loading={remove.isPending}
        title={translate(
          toDelete?.kind === 'zones' ? 'location_generator.delete_zone' : 'location_generator.delete_area',
        )}
        content={translate(
          toDelete?.kind === 'zones'
            ? 'location_generator.delete_zone_confirm'
            : 'location_generator.delete_area_confirm',
          { name: toDelete?.name ?? '' },
        )}
        onConfirm={() => toDelete && remove.mutate({ kind: toDelete.kind, id: toDelete.id })}
        onClose={() => setToDelete(undefined)}
      />
    </Box>
  );
}
