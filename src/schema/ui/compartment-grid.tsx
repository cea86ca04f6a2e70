import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useLiveTopic } from './live-updates.tsx';
import { useTranslate } from 'react-admin';
import { useGateway } from './gateway-api.ts';
import type { Compartment } from '../../types/generated/compartment.ts';

/** One unit of `GET webtool/service_points?opname=get_compartments` (by hardware_id or service_point_id). */
export interface UnitCompartments {
  hardware_id: number;
  name: string;
  model_name?: string;
  compartments: Compartment[];
}

export type CompartmentQuery = { hardware_id: number | string } | { service_point_id: number | string };

/** The compartments' react-query keys: `all()` refreshes every grid (after a unit's action elsewhere). */
export const compartmentKeys = {
  all: () => ['compartments'] as const,
  of: (query: CompartmentQuery | { service_point_id: number | string | undefined }) => ['compartments', query] as const,
};

/**
 * A compartment shows one state; when several flags are set, the first of this order wins: what
 * stops a door from being used (a fault, a lock, switched off) says more than what is inside it.
 */
export const STATE_ORDER = ['faulty', 'locked', 'disabled', 'inactive', 'occupied', 'reserved', 'free'] as const;
export type CompartmentState = (typeof STATE_ORDER)[number];

const STATE_FLAGS: Record<Exclude<CompartmentState, 'free'>, keyof Compartment> = {
  faulty: 'is_faulty',
  locked: 'is_locked',
  disabled: 'is_disabled',
  inactive: 'is_inactive_comp',
  occupied: 'is_occupied',
  reserved: 'is_reserved',
};

export function compartmentState(compartment: Compartment): CompartmentState {
  for (const state of STATE_ORDER) {
    if (state !== 'free' && compartment[STATE_FLAGS[state]] === true) return state;
  }
  return 'free';
}

/**
 * Light fills with dark text of the same hue (at least 7:1) and a darker border; a symbol per state
 * as a second cue besides the colour, and the state written in each cell's name and the legend.
 */
const STATE_LOOK: Record<CompartmentState, { background: string; color: string; border: string; symbol: string }> = {
  faulty: { background: '#ffcdd2', color: '#6d0000', border: '#c62828', symbol: '!' },
  locked: { background: '#e8d5f0', color: '#3b0066', border: '#6a1b9a', symbol: '#' },
  disabled: { background: '#dcdcdc', color: '#1f1f1f', border: '#616161', symbol: '×' },
  inactive: { background: '#f4f4f4', color: '#333333', border: '#9e9e9e', symbol: '–' },
  occupied: { background: '#cfe3fb', color: '#0b2c56', border: '#1565c0', symbol: '■' },
  reserved: { background: '#fff1c2', color: '#3f2e00', border: '#b28704', symbol: '◆' },
  free: { background: '#e6f4e7', color: '#133f16', border: '#2e7d32', symbol: '○' },
};

/** Door heights by size, so the drawing has the locker's proportions. */
const SIZE_HEIGHT: Record<Compartment['size'], number> = { small: 40, medium: 64, large: 96 };

/** The compartments by column, left to right, each from the top. */
export function lockerColumns(compartments: readonly Compartment[]): Compartment[][] {
  const byColumn = new Map<number, Compartment[]>();
  for (const compartment of compartments) {
    byColumn.set(compartment.column, [...(byColumn.get(compartment.column) ?? []), compartment]);
  }
  return [...byColumn.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, cells]) => [...cells].sort((a, b) => a.position - b.position));
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What a screen reader, the tooltip and the table say of one compartment. */
export function compartmentDescription(compartment: Compartment, translate: Translate): string {
  const parts = [
    translate('hardware.grid.cell', {
      column: compartment.column,
      position: compartment.position,
      size: translate(`choices.compartment_size.${compartment.size}`),
      state: translate(`hardware.grid.states.${compartmentState(compartment)}`),
    }),
  ];
  if (compartment.piece_id) parts.push(translate('hardware.grid.piece', { piece: compartment.piece_id }));
  if (compartment.next_piece_id) {
    parts.push(translate('hardware.grid.next_piece', { piece: compartment.next_piece_id }));
  }
  return parts.join(', ');
}

function Legend({ compartments }: { compartments: readonly Compartment[] }) {
  const translate = useTranslate();
  const counts = new Map<CompartmentState, number>();
  for (const compartment of compartments) {
    const state = compartmentState(compartment);
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return (
    <Box
      component="ul"
      aria-label={translate('hardware.grid.legend')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 0, m: 0, listStyle: 'none' }}
    >
      {STATE_ORDER.map((state) => {
        const look = STATE_LOOK[state];
        return (
          <Box component="li" key={state} data-state={state} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Box
              component="span"
              aria-hidden
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                justifyContent: 'center',
                width: 20,
                height: 20,
                background: look.background,
                color: look.color,
                border: `2px solid ${look.border}`,
                borderRadius: 0.5,
                fontSize: 12,
              }}
            >
              {look.symbol}
            </Box>
            <Typography component="span" variant="body2">
              {`${translate(`hardware.grid.states.${state}`)} (${counts.get(state) ?? 0})`}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}

function Cell({ compartment }: { compartment: Compartment }) {
  const translate = useTranslate();
  const state = compartmentState(compartment);
  const look = STATE_LOOK[state];
  const description = compartmentDescription(compartment, translate);
  return (
    <Tooltip title={description} describeChild>
      <Box
        component="li"
        tabIndex={0}
        aria-label={description}
        data-state={state}
        sx={{
          height: SIZE_HEIGHT[compartment.size],
          background: look.background,
          color: look.color,
          border: `2px solid ${look.border}`,
          borderStyle: state === 'inactive' ? 'dashed' : 'solid',
          borderRadius: 0.5,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 0.5,
          fontSize: '0.8125rem',
          fontWeight: 500,
          cursor: 'default',
          '&:focus-visible': { outline: '3px solid #1f1f1f', outlineOffset: 1 },
        }}
      >
        <span aria-hidden>{look.symbol}</span>
        {/* Its door in the column (the column's caption above): a person finds it by place, not by database id. */}
        <span aria-hidden>{compartment.position}</span>
      </Box>
    </Tooltip>
  );
}

function CompartmentTable({ unit }: { unit: UnitCompartments }) {
  const translate = useTranslate();
  const heading = (field: string) => translate(`hardware.grid.fields.${field}`);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <caption>{translate('hardware.grid.table_caption', { name: unit.name })}</caption>
        <TableHead>
          <TableRow>
            {['compartment_id', 'column', 'position', 'size', 'state', 'piece_id', 'next_piece_id'].map((field) => (
              <TableCell key={field}>{heading(field)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {lockerColumns(unit.compartments)
            .flat()
            .map((compartment) => (
              <TableRow key={compartment.compartment_id}>
                <TableCell>{compartment.compartment_id}</TableCell>
                <TableCell>{compartment.column}</TableCell>
                <TableCell>{compartment.position}</TableCell>
                <TableCell>{translate(`choices.compartment_size.${compartment.size}`)}</TableCell>
                <TableCell>{translate(`hardware.grid.states.${compartmentState(compartment)}`)}</TableCell>
                <TableCell>{compartment.piece_id ?? '-'}</TableCell>
                <TableCell>{compartment.next_piece_id ?? '-'}</TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * One locker as it stands: its columns side by side, each compartment from the top with a height by
 * its size, coloured by state, with a legend, a tooltip and a spoken name per cell (each reachable
 * with Tab), and the same compartments as a table for whoever prefers reading them in rows.
 */
export function CompartmentGrid({ unit }: { unit: UnitCompartments }) {
  const translate = useTranslate();
  const [asTable, setAsTable] = useState(false);
  const columns = lockerColumns(unit.compartments);
  const title = translate('hardware.grid.title', { name: unit.name });
  return (
    <Box component="section" aria-label={title} sx={{ width: '100%', mb: 3 }}>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ alignItems: 'baseline', mb: 1 }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {unit.model_name && (
          <Typography component="span" variant="body2" color="text.secondary">
            {unit.model_name}
          </Typography>
        )}
        <Button size="small" onClick={() => setAsTable(!asTable)} sx={{ ml: 'auto' }}>
          {translate(asTable ? 'hardware.grid.show_grid' : 'hardware.grid.show_table')}
        </Button>
      </Stack>
      {!unit.compartments.length ? (
        <Typography>{translate('hardware.grid.empty')}</Typography>
      ) : asTable ? (
        <CompartmentTable unit={unit} />
      ) : (
        <>
          <Legend compartments={unit.compartments} />
          <Box sx={{ display: 'flex', gap: 0.75, mt: 1.5, overflowX: 'auto', pb: 0.5 }}>
            {columns.map((cells) => (
              <Box key={cells[0].column} sx={{ flex: '1 1 0', minWidth: 52, maxWidth: 120 }}>
                <Typography
                  aria-hidden
                  variant="caption"
                  component="div"
                  sx={{ textAlign: 'center', fontWeight: 500, whiteSpace: 'nowrap' }}
                >
                  {translate('hardware.grid.column_caption', { column: cells[0].column })}
                </Typography>
                <Box
                  component="ul"
                  aria-label={translate('hardware.grid.column', { column: cells[0].column })}
                  sx={{
                    display: 'flex',
                    flexDirection: 'column',
                    gap: 0.5,
                    m: 0,
                    p: 0.5,
                    listStyle: 'none',
                    background: '#9e9e9e33',
                    borderRadius: 1,
                  }}
                >
                  {cells.map((compartment) => (
                    <Cell key={compartment.compartment_id} compartment={compartment} />
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}

/**
 * The compartment grids of one unit (`{ hardware_id }`) or of every unit of a service point
 * (`{ service_point_id }`), read from the gateway, with loading and error states.
 */
export function CompartmentGrids({ query }: { query: CompartmentQuery }) {
  const translate = useTranslate();
  const dataProvider = useGateway();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: compartmentKeys.of(query),
    // A refusal or a missing unit does not mend itself: the error shows at once, with a retry button.
    retry: false,
    queryFn: async () =>
      (
        await dataProvider.call<{ data: UnitCompartments[] }>({
          method: 'GET',
          path: 'webtool/service_points',
          query: { ...query, opname: 'get_compartments' },
        })
      ).data,
  });
  // A compartment opened, filled or emptied by someone else recolours in place (live updates).
  useLiveTopic(`resource/${HARDWARE_RESOURCE}`, (event) => {
    const shown = new Set((data ?? []).map((unit) => String(unit.hardware_id)));
    if (event.meta?.all || event.payload.ids.some((id) => shown.has(String(id)))) void refetch();
  });
  if (isPending) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }} role="status">
        <CircularProgress size={20} aria-hidden />
        <Typography>{translate('hardware.grid.loading')}</Typography>
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()}>
            {translate('hardware.grid.retry')}
          </Button>
        }
      >
        {translate('hardware.grid.failed', { message: translate(error.message, { _: error.message }) })}
      </Alert>
    );
  }
  if (!data.length) return <Typography>{translate('hardware.grid.empty')}</Typography>;
  return (
    <Box sx={{ width: '100%' }}>
      {data.map((unit) => (
        <CompartmentGrid key={unit.hardware_id} unit={unit} />
      ))}
    </Box>
  );
}

/** The resource of the hardware units, whose compartments the stream reports as their part. */
const HARDWARE_RESOURCE = 'hardware';
