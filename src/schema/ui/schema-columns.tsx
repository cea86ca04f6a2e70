import { createContext, useContext, useMemo, useState } from 'react';
import { Box, Button, Stack, styled } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { MouseEvent, ReactNode } from 'react';
import {
  ChipField,
  ImageField,
  ReferenceArrayField,
  SingleFieldList,
  UrlField,
  useFieldValue,
  useGetManyAggregate,
  useGetRecordRepresentation,
  useListContext,
  useLocaleState,
  useRecordContext,
  useTranslate,
  useCreatePath,
  useResourceDefinitions,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { localisedText } from '../localised-text.ts';
import { readableValue } from '../readable-value.ts';
import { dateTexts, type DateTexts } from '../dates.ts';
import { numberFormat } from '../number-texts.ts';
import type { FieldModel } from '../resource-model.ts';
import { useLookupChoices, type Choice } from './lookup-choices.ts';
import { useLookupRecordResource } from './lookup-record-link.tsx';
import { Badge, choicesById, LookupBadgeList } from './lookup-badges.tsx';
import { badgeOf, BadgeWithMarks, marksOf, plainBadges, type BadgeView } from './status-badge.tsx';

/*
 * A 500-row page has ten thousand cells. Each column is planned once per render of the table (its
 * labels, lookups and number format resolved up front) into a function of the record, so that most
 * cells are plain text: no component, hook, tooltip, query or Chip per cell. Only cells with state
 * or their own fetching (expandable text, references, images) stay components, reading the row's
 * record context.
 */

/** What every column plan may use, resolved once per table render. */
export interface CellContext {
  translate: (key: string, options?: Record<string, unknown>) => string;
  /** The names of a switch column's two states. */
  switchLabels: { on: string; off: string };
  /** The names of a boolean that is not a switch (terminated, parked): Yes and No. */
  yesNoLabels: { on: string; off: string };
  numberFormat: Intl.NumberFormat;
  /** Days and date-times (`format: "date"`, `"date-time"`) in the user's language and time zone (src/schema/dates.ts). */
  dates?: DateTexts;
  editPath(id: Identifier): string;
  /**
   * How a list's link cells open their record: a plain anchor (its address for a new tab, the app's
   * router on a plain click), styled by the table. A router link per cell (a styled component,
   * path resolution and click hooks) cost a fifth of a 500-row page. Without it, router links. The
   * same table styles its badges by class (`plainBadges`).
   */
  follow?: { href(path: string): string; click(event: MouseEvent, path: string): void };
  /**
   * The lookup lists' names and record pages (`useLookupCells`), for a table that plans its lookup
   * columns as plain cells rather than a component with hooks per cell; a record page's path.
   */
  lookups?: LookupCells;
  recordPath?(resource: string, id: Identifier): string;
}

/** What the lookup columns read (see LookupColumns): items by value per source, and their record pages. */
export interface LookupCells {
  names: Record<string, ReadonlyMap<string, Choice>>;
  links: Record<string, string | undefined>;
}

export type CellRenderer = (record: RaRecord) => ReactNode;

/** The translated words of a cell context: the list, the compact list and the read-only view agree on them. */
export function cellContext(
  translate: CellContext['translate'],
  locale: string,
  editPath: CellContext['editPath'],
): CellContext {
  return {
    translate,
    switchLabels: { on: translate('table.active'), off: translate('table.deactive') },
    yesNoLabels: { on: translate('table.yes'), off: translate('table.no') },
    numberFormat: numberFormatFor(locale),
    dates: dateTexts(locale),
    editPath,
  };
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Numbers in the user's locale (a French decimal comma), ids without thousands separators. */
export function numberFormatFor(locale: string) {
  return numberFormat(locale);
}

const RecordLink = styled(RouterLink)(({ theme }) => ({ color: theme.palette.primary.main }));

/** The class of a list's plain record links (`CellContext.follow`); the table gives it the link colour. */
export const RECORD_LINK_CLASS = 'record-link';

/** A list table's way of following its links (`CellContext.follow`), for the cells that are components. */
export const CellLinkFollow = createContext<CellContext['follow']>(undefined);

/** A link in a cell that is a component (a partner's name): plain in a list table, else a router link. */
function CellLink({ to, children }: { to: string; children: ReactNode }) {
  const follow = useContext(CellLinkFollow);
  if (!follow) {
    return (
      <RecordLink to={to} onClick={stopPropagation}>
        {children}
      </RecordLink>
    );
  }
  return (
    <a className={RECORD_LINK_CLASS} href={follow.href(to)} onClick={(event) => follow.click(event, to)}>
      {children}
    </a>
  );
}

const stopPropagation = (event: MouseEvent) => event.stopPropagation();

const SwitchMark = styled('span')({ fontSize: '1.1rem', lineHeight: 1 });

/**
 * A check or a cross, named for screen readers and on hover. A text glyph: an icon component per
 * cell (styles, theme, tooltip) made boolean columns slow, and even a bare SVG per cell (three
 * elements) cost a fifth of a 500-row page with four boolean columns.
 */
function switchCell(value: unknown, labels: CellContext['switchLabels']): ReactNode {
  if (isEmpty(value)) return null;
  const on = value === true || value === 1 || value === 'true';
  const label = on ? labels.on : labels.off;
  return (
    <SwitchMark role="img" aria-label={label} title={label}>
      {on ? '\u2713' : '\u2717'}
    </SwitchMark>
  );
}

/** The name of one value: from the locale's `choices`, or the value itself. */
function valueLabel(field: FieldModel, context: CellContext): (value: unknown) => string {
  if (field.choices) {
    const key = field.choices;
    // Planned once per table render: each value's name is looked up once, not once per row.
    const names = new Map<unknown, string>();
    return (value) => {
      let name = names.get(value);
      if (name === undefined) {
        name = context.translate(`choices.${key}.${value}`, { _: String(value) });
        names.set(value, name);
      }
      return name;
    };
  }
  return (value) => String(value);
}

/**
 * How a column's values read as text: single values by the column's names (choices), keys of an object
 * by the locale's `table.value_keys` or as written, booleans Yes/No.
 */
function readableWords(label: (value: unknown) => string, context: Pick<CellContext, 'translate' | 'yesNoLabels'>) {
  return {
    name: label,
    key: (key: string) => context.translate(`table.value_keys.${key}`, { _: key.replace(/_/g, ' ') }),
    yes: context.yesNoLabels.on,
    no: context.yesNoLabels.off,
  };
}

function ExpandableField({ source }: { source: string; sortable?: boolean }) {
  const translate = useTranslate();
  const raw: unknown = useFieldValue({ source });
  const value = readableValue(
    raw,
    readableWords(String, {
      translate,
      yesNoLabels: { on: translate('table.yes'), off: translate('table.no') },
    }),
  );
  const [open, setOpen] = useState(false);
  if (value.length <= EXPANDABLE_PREVIEW) return <span>{value}</span>;
  return (
    <Box component="span">
      {open ? value : `${value.slice(0, EXPANDABLE_PREVIEW)}…`}
      <Button
        size="small"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(!open);
        }}
      >
        {translate(open ? 'table.show_less' : 'table.show_more')}
      </Button>
    </Box>
  );
}

const EXPANDABLE_PREVIEW = 60;

/**
 * A lookup-list value's name. A small component reading the list-wide names: when the list arrives,
 * only these cells render again, not every row.
 */
function LookupField({ source, lookupSource }: { source: string; lookupSource: string; sortable?: boolean }) {
  const value = useFieldValue({ source });
  const names = useContext(LookupNames)[lookupSource];
  // A partner's, a group's name links to its record (`x-resource.lookupLists`) for a user who may open it:
  // asked once per column (LookupSource), not per cell.
  const linkTo = useContext(LookupLinks)[lookupSource];
  const createPath = useCreatePath();
  if (isEmpty(value)) return null;
  const name = names?.get(String(value))?.name;
  if (name === undefined || !linkTo) return <>{name ?? String(value)}</>;
  return <CellLink to={createPath({ resource: linkTo, id: String(value), type: 'edit' })}>{name}</CellLink>;
}

/**
 * The names of an array of lookup-list values as badges (a service point's carriers), coloured when
 * the list gives each item a colour (a hardware unit's badges).
 */
function LookupBadgesField({ source, lookupSource }: { source: string; lookupSource: string; sortable?: boolean }) {
  const values = useFieldValue({ source });
  const choices = useContext(LookupNames)[lookupSource];
  if (!Array.isArray(values) || !values.length) return null;
  return <LookupBadgeList values={values} choices={choices} />;
}

/**
 * A referenced record's name (`select2` with `x-lookup.resource`), from the names fetched once for
 * the page's rows (see LookupColumns): a react-admin ReferenceField per cell was a data query per
 * cell, 1,500 of them on a 500-row page of service points. Empty until the name arrives, and when
 * the record is not found, as a ReferenceField is.
 */
function ReferenceName({ source, linkTo }: { source: string; sortable?: boolean; linkTo?: string }) {
  const value = useFieldValue({ source });
  const names = useContext(ReferenceNames)[source];
  const createPath = useCreatePath();
  const target = useResourceDefinitions()[linkTo ?? ''];
  if (isEmpty(value)) return null;
  const name = names?.get(String(value));
  if (!linkTo || name === undefined) return <>{name ?? null}</>;
  // `x-column.linked`: the referenced record's page (an alert's hardware unit or ticket); a read-only resource's
  // is its show page (a notification's piece).
  const type = target && !target.hasEdit && target.hasShow ? 'show' : 'edit';
  return <CellLink to={createPath({ resource: linkTo, id: String(value), type })}>{name}</CellLink>;
}

/** A cell that stays a component: rendered inside the row's record context. */
function componentCell(element: ReactNode): CellRenderer {
  return () => element;
}

/** A text kept per language (`x-localised-by`), in the app's language when it has been written in it. */
function LocalisedTextField({ source, localisedBy }: { source: string; localisedBy: string; sortable?: boolean }) {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  const text = localisedText(record?.[source] as string | undefined, record?.[localisedBy], locale);
  return isEmpty(text) ? null : <>{text}</>;
}

/** An object of texts by language (`{ "fr-FR": "..." }`), one "language: text" line each. */
function PerLanguageField({ source }: { source: string; sortable?: boolean }) {
  const value = useFieldValue({ source }) as Record<string, string> | undefined;
  if (!value || typeof value !== 'object') return null;
  return (
    <>
      {Object.entries(value)
        .filter(([, text]) => !isEmpty(text))
        .map(([language, text]) => (
          <Box key={language}>{`${language}: ${text}`}</Box>
        ))}
    </>
  );
}

/** The react-admin field of the cells that fetch or keep state, or undefined for plain cells. */
export function schemaColumn(field: FieldModel): ReactNode | undefined {
  const common = { source: field.source, sortable: field.type !== 'array' };
  if (field.localisedBy) {
    return <LocalisedTextField key={field.source} {...common} localisedBy={field.localisedBy} />;
  }
  if (field.languages) return <PerLanguageField key={field.source} {...common} sortable={false} />;
  if (field.lookup?.source) {
    return field.type === 'array' ? (
      <LookupBadgesField key={field.source} {...common} lookupSource={field.lookup.source} />
    ) : (
      <LookupField key={field.source} {...common} lookupSource={field.lookup.source} />
    );
  }
  switch (field.column.type) {
    case 'select2':
      return field.lookup?.resource ? (
        <ReferenceName
          key={field.source}
          {...common}
          linkTo={field.column.linked ? field.lookup.resource : undefined}
        />
      ) : undefined;
    case 'array_with_badges':
      return field.lookup?.resource ? (
        <ReferenceArrayField key={field.source} {...common} reference={field.lookup.resource}>
          <SingleFieldList linkType={false}>
            <ChipField source={field.lookup.label ?? 'name'} size="small" />
          </SingleFieldList>
        </ReferenceArrayField>
      ) : undefined;
    case 'expandable':
      return <ExpandableField key={field.source} {...common} />;
    case 'linkonly':
      return (
        <UrlField key={field.source} {...common} target="_blank" rel="noopener noreferrer" onClick={stopPropagation} />
      );
    case 'images':
      return <ImageField key={field.source} {...common} src="url" />;
    default:
      return undefined;
  }
}

/** One column's cells, by its `x-column.type` and the field's type and hints. */
export function columnPlan(field: FieldModel, context: CellContext): CellRenderer {
  const lookupSource = field.lookup?.source;
  const { lookups, follow, recordPath } = context;
  if (lookupSource && field.type !== 'array' && !field.localisedBy && !field.languages && lookups) {
    // A lookup value's name, linked to its record for a user who may open it (as LookupField).
    const names = lookups.names[lookupSource];
    const linkTo = lookups.links[lookupSource];
    const { source } = field;
    return (record) => {
      const value = record[source];
      if (isEmpty(value)) return null;
      const name = names?.get(String(value))?.name;
      if (name === undefined || !linkTo || !follow || !recordPath) return name ?? String(value);
      const path = recordPath(linkTo, String(value));
      return (
        <a className={RECORD_LINK_CLASS} href={follow.href(path)} onClick={(event) => follow.click(event, path)}>
          {name}
        </a>
      );
    };
  }
  const element = schemaColumn(field);
  if (element) return componentCell(element);
  const { source } = field;
  const label = valueLabel(field, context);
  // An array or object reads as names and `label: value` pairs, never `[object Object]`.
  const words = readableWords(label, context);
  if (field.badge) {
    // In a list table (which styles them by class), plain spans.
    const draw = context.follow
      ? plainBadges
      : (badge: BadgeView | undefined, marks: BadgeView[]) => <BadgeWithMarks badge={badge} marks={marks} />;
    return (record) =>
      draw(badgeOf(field, record, context.translate, label), marksOf(field, record, context.translate));
  }
  switch (field.column.type) {
    case 'switch':
      return (record) => switchCell(record[source], context.switchLabels);
    case 'link': {
      // A record named by its day (a price's valid-from) reads it in the language's format too.
      const dates = context.dates;
      const day = field.format === 'date' ? dates?.date : field.format === 'date-time' ? dates?.dateTime : undefined;
      const linkText = (value: unknown) => (isEmpty(value) ? '' : day ? day(value) : String(value));
      const follow = context.follow;
      if (follow) {
        return (record) => {
          const path = context.editPath(record.id);
          return (
            <a className={RECORD_LINK_CLASS} href={follow.href(path)} onClick={(event) => follow.click(event, path)}>
              {linkText(record[source])}
            </a>
          );
        };
      }
      return (record) => (
        <RecordLink to={context.editPath(record.id)} onClick={stopPropagation}>
          {linkText(record[source])}
        </RecordLink>
      );
    }
    case 'text_with_badge':
      return (record) => (isEmpty(record[source]) ? null : <Badge>{label(record[source])}</Badge>);
    case 'array_with_badges':
      return (record) => {
        const values = record[source];
        if (!Array.isArray(values) || !values.length) return null;
        return (
          <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
            {values.map((value, index) => (
              <Badge key={index}>{readableValue(value, words)}</Badge>
            ))}
          </Stack>
        );
      };
    default:
      if (field.type === 'boolean') return (record) => switchCell(record[source], context.yesNoLabels);
      if (field.choices || field.column.type === 'select') {
        return (record) => (isEmpty(record[source]) ? null : readableValue(record[source], words));
      }
      if ((field.format === 'date-time' || field.format === 'date' || field.format === 'date-dmy') && context.dates) {
        const dates = context.dates;
        const write = field.format === 'date-time' ? dates.dateTime : dates.date;
        return (record) => (isEmpty(record[source]) ? null : write(record[source]));
      }
      if (field.type === 'integer' || field.type === 'number') {
        const { cap } = field.column;
        // A price (`x-input.step` 0.01) with its two decimals: 5.60, not 5.6.
        const format = field.input.step
          ? numberFormat(context.numberFormat.resolvedOptions().locale, field.input.step)
          : context.numberFormat;
        return (record) => {
          const value = record[source];
          if (isEmpty(value)) return null;
          if (typeof value !== 'number') return String(value);
          return cap !== undefined && value > cap ? `${format.format(cap)}+` : format.format(value);
        };
      }
      return (record) => (isEmpty(record[source]) ? null : readableValue(record[source], words));
  }
}

/** Lookup-list items (name, colour) by value, per source, filled once per list (see LookupColumns). */
const LookupNames = createContext<Record<string, ReadonlyMap<string, Choice>>>({});

/** The resource whose record each lookup column's value is, when the user may open it (see LookupRecordLink). */
const LookupLinks = createContext<Record<string, string | undefined>>({});

/** The lookup columns' names and record pages from LookupColumns, for a table's plain cells. */
export function useLookupCells(): LookupCells {
  const names = useContext(LookupNames);
  const links = useContext(LookupLinks);
  return useMemo(() => ({ names, links }), [names, links]);
}

function LookupSource({ source, children }: { source: string; children: ReactNode }) {
  const choices = useLookupChoices(source);
  const outer = useContext(LookupNames);
  const value = useMemo(() => ({ ...outer, [source]: choicesById(choices) }), [outer, source, choices]);
  const linkTo = useLookupRecordResource(source);
  const outerLinks = useContext(LookupLinks);
  const links = useMemo(() => ({ ...outerLinks, [source]: linkTo }), [outerLinks, source, linkTo]);
  return (
    <LookupNames.Provider value={value}>
      <LookupLinks.Provider value={links}>{children}</LookupLinks.Provider>
    </LookupNames.Provider>
  );
}

/** Representations of the page's referenced records, by source. */
const ReferenceNames = createContext<Record<string, ReadonlyMap<string, ReactNode>>>({});

/** The column's referenced records for the list's current page, in one request. */
function ReferenceSource({ source, reference, children }: { source: string; reference: string; children: ReactNode }) {
  const { data } = useListContext();
  const ids = useMemo(
    () => [...new Set((data ?? []).map((record) => record[source]).filter((id) => !isEmpty(id)))] as Identifier[],
    [data, source],
  );
  const { data: records } = useGetManyAggregate(reference, { ids }, { enabled: ids.length > 0 });
  const represent = useGetRecordRepresentation(reference);
  const outer = useContext(ReferenceNames);
  const value = useMemo(
    () => ({ ...outer, [source]: new Map((records ?? []).map((record) => [String(record.id), represent(record)])) }),
    [outer, source, records, represent],
  );
  return <ReferenceNames.Provider value={value}>{children}</ReferenceNames.Provider>;
}

/**
 * Fetches each lookup list the columns name once, and each reference column's records once per
 * page, for all their cells. Inside the list context.
 */
export function LookupColumns({ fields, children }: { fields: readonly FieldModel[]; children: ReactNode }) {
  const sources = [...new Set(fields.map((field) => field.lookup?.source).filter((s): s is string => Boolean(s)))];
  const references = fields.filter(
    (field) => field.column.type === 'select2' && field.lookup?.resource && !field.lookup.source,
  );
  const withReferences = references.reduceRight<ReactNode>(
    (inner, field) => (
      <ReferenceSource key={field.source} source={field.source} reference={field.lookup!.resource!}>
        {inner}
      </ReferenceSource>
    ),
    children,
  );
  return sources.reduceRight<ReactNode>(
    (inner, source) => (
      <LookupSource key={source} source={source}>
        {inner}
      </LookupSource>
    ),
    withReferences,
  );
}
