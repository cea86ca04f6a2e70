import { Stack, styled } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { matchesCondition, type BadgeColor, type FieldModel, type ResourceModel } from '../resource-model.ts';
import { useLookupChoices } from './lookup-choices.ts';
import { choicesById, LookupBadgeList } from './lookup-badges.tsx';

/**
 * Background and text of each badge colour: dark text on a light tint, at least 7:1 (WCAG AAA) so the
 * badge stays readable on any row hover. The label is always written: colour is never the only cue.
 */
const BADGE_PALETTE: Record<BadgeColor, { background: string; color: string; border: string }> = {
  default: { background: '#f1f1f1', color: '#212121', border: '#9e9e9e' },
  info: { background: '#e3f2fd', color: '#0d3c78', border: '#64a0dc' },
  success: { background: '#e8f5e9', color: '#174d1a', border: '#6fae73' },
  warning: { background: '#fff3e0', color: '#6b2c00', border: '#e0a060' },
  error: { background: '#ffebee', color: '#8e1515', border: '#e57373' },
};

/** A badge's shape; its colours come with each badge (`badgeColours`). */
export const BADGE_STYLE = {
  display: 'inline-block',
  padding: '1px 8px',
  borderRadius: 12,
  borderWidth: 1,
  borderStyle: 'solid',
  fontSize: '0.8125rem',
  lineHeight: '20px',
  whiteSpace: 'nowrap',
} as const;

/** The class of a badge drawn as a plain span in a list table, which gives it `BADGE_STYLE` once. */
export const BADGE_CLASS = 'status-badge';
/** The class of a badge and its marks side by side in a list table. */
export const BADGES_CLASS = 'status-badges';

const ColouredBadge = styled('span')(BADGE_STYLE);

const badgeColours = (color: BadgeColor) => {
  const palette = BADGE_PALETTE[color];
  return { background: palette.background, color: palette.color, borderColor: palette.border };
};

/**
 * A field's badge and marks as plain spans for a list table (styled by its class there): a styled
 * component per badge, on every row of a 500-row page, cost a tenth of its first render.
 */
export function plainBadges(badge: BadgeView | undefined, marks: BadgeView[]) {
  const span = ({ label, color }: BadgeView) => (
    <span key={label} className={BADGE_CLASS} data-badge-color={color} style={badgeColours(color)}>
      {label}
    </span>
  );
  if (!marks.length) return badge ? span(badge) : null;
  return (
    <span className={BADGES_CLASS}>
      {badge && span(badge)}
      {marks.map(span)}
    </span>
  );
}

export interface BadgeView {
  label: string;
  color: BadgeColor;
}

/**
 * The badge of a field in a record: the first `x-badge` rule the record matches (its label a locale
 * key), else the value's colour with the value's name; nothing for an empty value.
 */
export function badgeOf(
  field: FieldModel,
  record: Record<string, unknown>,
  translate: (key: string, options?: Record<string, unknown>) => string,
  valueLabel: (value: unknown) => string,
): BadgeView | undefined {
  const badge = field.badge;
  if (!badge) return undefined;
  const rule = badge.rules.find((candidate) => matchesCondition(record, candidate.when));
  if (rule) return { label: translate(rule.label, { _: rule.label }), color: rule.color };
  const value = record[field.source];
  if (value === undefined || value === null || value === '') return undefined;
  return { label: valueLabel(value), color: badge.colors[String(value)] ?? 'default' };
}

/** The `x-badge.marks` a record matches, each a badge of its own beside the value's ('Test'). */
export function marksOf(
  field: FieldModel,
  record: Record<string, unknown>,
  translate: (key: string, options?: Record<string, unknown>) => string,
): BadgeView[] {
  return (field.badge?.marks ?? [])
    .filter((mark) => matchesCondition(record, mark.when))
    .map((mark) => ({ label: translate(mark.label, { _: mark.label }), color: mark.color ?? 'warning' }));
}

/** A field's badge followed by its marks. */
export function BadgeWithMarks({ badge, marks }: { badge?: BadgeView; marks: BadgeView[] }) {
  if (!marks.length) return badge ? <StatusBadge {...badge} /> : null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" component="span">
      {badge && <StatusBadge {...badge} />}
      {marks.map((mark) => (
        <StatusBadge key={mark.label} {...mark} />
      ))}
    </Stack>
  );
}

export function StatusBadge({ label, color }: BadgeView) {
  return (
    <ColouredBadge data-badge-color={color} style={badgeColours(color)}>
      {label}
    </ColouredBadge>
  );
}

/** The record's badges at the head of its edit page, where the list showed them. */
export function RecordBadges({ model }: { model: ResourceModel }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const badges = model.fields
    .map((field) => {
      const choices = field.choices;
      const valueLabel = (value: unknown) =>
        choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value);
      return { field, view: badgeOf(field, record, translate, valueLabel), marks: marksOf(field, record, translate) };
    })
    .filter((badge) => badge.view !== undefined || badge.marks.length > 0);
  const colouredLists = model.fields.filter(
    (field) => field.column.type === 'array_with_badges' && field.lookup?.source && Array.isArray(record[field.source]),
  );
  if (!badges.length && !colouredLists.length) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mr: 'auto', alignItems: 'center' }}>
      {badges.map(({ field, view, marks }) => (
        <span
          role="group"
          key={field.source}
          aria-label={`${translate(`resources.${model.name}.fields.${field.source}`)}: ${[view, ...marks]
            .filter((badge) => badge !== undefined)
            .map((badge) => badge.label)
            .join(', ')}`}
        >
          <BadgeWithMarks badge={view} marks={marks} />
        </span>
      ))}
      {colouredLists.map((field) => (
        <ColouredLookupBadges
          key={field.source}
          values={record[field.source] as unknown[]}
          lookupSource={field.lookup!.source!}
          label={translate(`resources.${model.name}.fields.${field.source}`)}
        />
      ))}
    </Stack>
  );
}

/**
 * A list of lookup values whose items carry colours (a hardware unit's badges), next to the status
 * badge; a list without colours (a service point's carriers) stays in the form only.
 */
function ColouredLookupBadges({
  values,
  lookupSource,
  label,
}: {
  values: unknown[];
  lookupSource: string;
  label: string;
}) {
  const choices = choicesById(useLookupChoices(lookupSource));
  const named = values.map((value) => choices.get(String(value)));
  if (!values.length || !named.some((choice) => choice?.color)) return null;
  return (
    <span
      role="group"
      aria-label={`${label}: ${named.map((choice, i) => choice?.name ?? String(values[i])).join(', ')}`}
    >
      <LookupBadgeList values={values} choices={choices} />
    </span>
  );
}
