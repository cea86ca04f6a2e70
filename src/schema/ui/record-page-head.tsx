import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Divider, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useTranslate } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { useRecordActions, type RecordActionEntry } from './record-actions.tsx';

/** Space kept between the buttons of the head (MUI spacing 0.5 = 4 px) and a margin against rounding. */
const GAP = 4;
const SLACK = 8;

/**
 * How many of the actions, taken in priority order, fit inline in `available` pixels: all when they do,
 * otherwise as many as fit beside the "More" button that holds the rest. Nothing is measured yet (0 wide,
 * as before the first layout or in a test without layout): all inline.
 */
export function fitActions(widths: number[], available: number, moreWidth: number): number {
  if (available <= 0) return widths.length;
  const total = widths.reduce((sum, width) => sum + width + GAP, 0);
  if (total <= available) return widths.length;
  let used = moreWidth + GAP;
  let count = 0;
  for (const width of widths) {
    if (used + width + GAP > available) break;
    used += width + GAP;
    count += 1;
  }
  return count;
}

/** A button's label as a stand-in of the same width: drawn by CSS, so that no text or role repeats. */
function Measure({ label, withIcon = false }: { label: string; withIcon?: boolean }) {
  return (
    <Box
      component="span"
      data-label={label}
      sx={(theme) => ({
        ...theme.typography.button,
        fontSize: theme.typography.pxToRem(13),
        display: 'inline-block',
        whiteSpace: 'nowrap',
        px: '5px',
        pl: withIcon ? '28px' : '5px',
        '&::before': { content: 'attr(data-label)' },
      })}
    />
  );
}

/**
 * The record actions of a page head, in one line that never overlaps: as many as fit, in the schema's
 * order, then a "More" menu holding the rest; destructive actions come last, apart (after a divider) and
 * in the error colour, inline or at the end of the menu. `trailing` (the resource's own buttons, History)
 * keeps its place at the end. The line is measured on every resize, so a wider window shows more inline.
 */
export function RecordActionButtons({ model, trailing }: { model: ResourceModel; trailing?: ReactNode }) {
  const translate = useTranslate();
  const { entries, running, dialogs } = useRecordActions(model);
  const bar = useRef<HTMLDivElement>(null);
  const fixed = useRef<HTMLDivElement>(null);
  const measures = useRef<HTMLDivElement>(null);
  const [inline, setInline] = useState(Number.POSITIVE_INFINITY);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const ordered = [...entries.filter((entry) => !entry.destructive), ...entries.filter((entry) => entry.destructive)];
  const labels = ordered.map((entry) => entry.label).join('\u0000');

  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const measure = () => {
      const spans = [...(measures.current?.children ?? [])] as HTMLElement[];
      const widths = spans.slice(0, -1).map((span) => span.offsetWidth);
      const moreWidth = spans.at(-1)?.offsetWidth ?? 0;
      const available = element.clientWidth - (fixed.current?.offsetWidth ?? 0) - SLACK;
      setInline(element.clientWidth > 0 ? fitActions(widths, Math.max(available, 1), moreWidth) : widths.length);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (fixed.current) observer.observe(fixed.current);
    return () => observer.disconnect();
  }, [labels]);

  const shown = ordered.slice(0, inline);
  const folded = ordered.slice(inline);
  const button = (entry: RecordActionEntry) => (
    <Button
      key={entry.action.name}
      size="small"
      disabled={running}
      color={entry.destructive ? 'error' : 'primary'}
      variant={entry.destructive ? 'outlined' : 'text'}
      onClick={entry.start}
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    >
      {entry.label}
    </Button>
  );
  const firstDestructive = shown.findIndex((entry) => entry.destructive);
  const foldedSafe = folded.filter((entry) => !entry.destructive);
  const foldedDestructive = folded.filter((entry) => entry.destructive);
  return (
    <Box
      ref={bar}
      data-testid="record-actions"
      sx={{
        position: 'relative',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: `${GAP}px`,
        flex: '1 1 200px',
        minWidth: 0,
      }}
    >
      <Box
        ref={measures}
        aria-hidden
        sx={{ position: 'absolute', visibility: 'hidden', height: 0, overflow: 'hidden', whiteSpace: 'nowrap' }}
      >
        {ordered.map((entry) => (
          <Measure key={entry.action.name} label={entry.label} />
        ))}
        <Measure label={translate('form.more_actions')} withIcon />
      </Box>
      {shown.map((entry, index) => (
        <Box key={entry.action.name} sx={{ display: 'contents' }}>
          {index === firstDestructive && index > 0 && <Divider orientation="vertical" flexItem />}
          {button(entry)}
        </Box>
      ))}
      {folded.length > 0 && (
        <>
          <Button
            size="small"
            startIcon={<MoreVertIcon />}
            aria-haspopup="menu"
            aria-expanded={menuAnchor ? 'true' : undefined}
            disabled={running}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {translate('form.more_actions')}
          </Button>
          <Menu anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={() => setMenuAnchor(null)}>
            {foldedSafe.map((entry) => (
              <MenuItem
                key={entry.action.name}
                onClick={() => {
                  setMenuAnchor(null);
                  entry.start();
                }}
              >
                <ListItemText>{entry.label}</ListItemText>
              </MenuItem>
            ))}
            {foldedSafe.length > 0 && foldedDestructive.length > 0 && <Divider />}
            {foldedDestructive.map((entry) => (
              <MenuItem
                key={entry.action.name}
                sx={{ color: 'error.main' }}
                onClick={() => {
                  setMenuAnchor(null);
                  entry.start();
                }}
              >
                <ListItemText>{entry.label}</ListItemText>
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
      {trailing && (
        <Box ref={fixed} sx={{ display: 'flex', alignItems: 'center', flexShrink: 0, gap: `${GAP}px` }}>
          {trailing}
        </Box>
      )}
      {dialogs}
    </Box>
  );
}

/**
 * The head of a record page, under the title: the record's badges on the left, its actions on the
 * right; when both do not fit on one line the actions wrap below the badges, and the actions fold
 * into "More" rather than overlap (src/schema/ui/record-page-head.tsx#RecordActionButtons).
 */
export function RecordPageHead({
  model,
  badges,
  trailing,
  withActions,
}: {
  model: ResourceModel;
  badges: ReactNode;
  trailing: ReactNode;
  withActions: boolean;
}) {
  return (
    <Box
      data-testid="record-page-head"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        columnGap: 2,
        rowGap: 0.5,
        width: '100%',
        minHeight: 48,
        py: 0.5,
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, minWidth: 0 }}>{badges}</Box>
      {withActions ? (
        <RecordActionButtons model={model} trailing={trailing} />
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: `${GAP}px`, ml: 'auto' }}>{trailing}</Box>
      )}
    </Box>
  );
}
