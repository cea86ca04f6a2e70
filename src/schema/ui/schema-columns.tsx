import { createContext, useContext, useMemo, useState } from 'react';
import DoneIcon from '@mui/icons-material/Done';
import ClearIcon from '@mui/icons-material/Clear';
import { Box, Button, Link, Stack, styled } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { MouseEvent, ReactNode } from 'react';
import {
  ChipField,
  ImageField,
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  UrlField,
  useCreatePath,
  useFieldValue,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { FieldModel } from '../resource-model.ts';
import { useLookupChoices } from './lookup-choices.ts';

/*
 * A 500-row page renders ten thousand cells, so cells stay light: no tooltip, query, Typography
 * or Chip per cell; lookups are fetched once per column and number formats made once per locale.
 */

interface CellProps {
  source: string;
  sortable?: boolean;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** A small outlined label, as a Chip looks, at a fraction of its cost. */
const Badge = styled('span')(({ theme }) => ({
  display: 'inline-block',
  padding: '1px 8px',
  borderRadius: 12,
  border: `1px solid ${theme.palette.divider}`,
  fontSize: '0.8125rem',
  lineHeight: '20px',
  whiteSpace: 'nowrap',
}));

function PlainField({ source }: CellProps) {
  const value = useFieldValue({ source });
  return isEmpty(value) ? null : <>{String(value)}</>;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormat = (locale: string) => {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 6, useGrouping: false });
    numberFormats.set(locale, format);
  }
  return format;
};

/** Numbers in the user's locale (a French decimal comma), ids without thousands separators. */
function NumberCell({ source }: CellProps) {
  const value = useFieldValue({ source });
  const [locale] = useLocaleState();
  if (isEmpty(value)) return null;
  return <>{typeof value === 'number' ? numberFormat(locale).format(value) : String(value)}</>;
}

function SwitchField({ source }: CellProps) {
  const value = useFieldValue({ source });
  const translate = useTranslate();
  if (isEmpty(value)) return null;
  const on = value === true || value === 1 || value === 'true';
  const Icon = on ? DoneIcon : ClearIcon;
  return <Icon fontSize="small" titleAccess={translate(on ? 'table.active' : 'table.deactive')} />;
}

function ChoiceField({ source, choices }: CellProps & { choices?: string }) {
  const value = useFieldValue({ source });
  const translate = useTranslate();
  if (isEmpty(value)) return null;
  return <>{choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value)}</>;
}

/** Names of lookup-list values by source, filled once per list (see LookupColumns). */
const LookupNames = createContext<Record<string, ReadonlyMap<string, string>>>({});

function LookupSource({ source, children }: { source: string; children: ReactNode }) {
  const choices = useLookupChoices(source);
  const outer = useContext(LookupNames);
  const value = useMemo(
    () => ({ ...outer, [source]: new Map(choices.map((choice) => [String(choice.id), choice.name])) }),
    [outer, source, choices],
  );
  return <LookupNames.Provider value={value}>{children}</LookupNames.Provider>;
}

/** Fetches each lookup list the columns name once, for all their cells. */
export function LookupColumns({ fields, children }: { fields: readonly FieldModel[]; children: ReactNode }) {
  const sources = [...new Set(fields.map((field) => field.lookup?.source).filter((s): s is string => Boolean(s)))];
  return sources.reduceRight<ReactNode>(
    (inner, source) => (
      <LookupSource key={source} source={source}>
        {inner}
      </LookupSource>
    ),
    children,
  );
}

const EXPANDABLE_PREVIEW = 60;

function ExpandableField({ source }: { source: string; sortable?: boolean }) {
  const value = String(useFieldValue({ source }) ?? '');
  const translate = useTranslate();
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

function BadgesField({ source, choices }: CellProps & { choices?: string }) {
  const values = useFieldValue({ source }) as unknown[] | undefined;
  const translate = useTranslate();
  if (!Array.isArray(values) || !values.length) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {values.map((value) => (
        <Badge key={String(value)}>
          {choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value)}
        </Badge>
      ))}
    </Stack>
  );
}

function TextWithBadgeField({ source, choices }: CellProps & { choices?: string }) {
  const value = useFieldValue({ source });
  const translate = useTranslate();
  if (isEmpty(value)) return null;
  return <Badge>{choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value)}</Badge>;
}

function LookupField({ source, lookupSource }: CellProps & { lookupSource: string }) {
  const value = useFieldValue({ source });
  const names = useContext(LookupNames)[lookupSource];
  if (isEmpty(value)) return null;
  return <>{names?.get(String(value)) ?? String(value)}</>;
}

/** The record's own link: opens its edit page, reachable with the keyboard. */
function LinkField({ source }: { source: string; sortable?: boolean }) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <Link
      component={RouterLink}
      to={createPath({ resource, id: record.id, type: 'edit' })}
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {String(record[source] ?? '')}
    </Link>
  );
}

/** One list column for a schema field, by its `x-column.type`. */
export function schemaColumn(field: FieldModel) {
  const common = { source: field.source, sortable: field.type !== 'array' };
  switch (field.column.type) {
    case 'switch':
      return <SwitchField key={field.source} {...common} />;
    case 'select':
      return field.lookup?.source ? (
        <LookupField key={field.source} {...common} lookupSource={field.lookup.source} />
      ) : (
        <ChoiceField key={field.source} {...common} choices={field.choices} />
      );
    case 'select2':
      return field.lookup?.resource ? (
        <ReferenceField key={field.source} {...common} reference={field.lookup.resource} link={false} />
      ) : (
        <PlainField key={field.source} {...common} />
      );
    case 'array_with_badges':
      return field.lookup?.resource ? (
        <ReferenceArrayField key={field.source} {...common} reference={field.lookup.resource}>
          <SingleFieldList linkType={false}>
            <ChipField source={field.lookup.label ?? 'name'} size="small" />
          </SingleFieldList>
        </ReferenceArrayField>
      ) : (
        <BadgesField key={field.source} {...common} choices={field.choices} />
      );
    case 'text_with_badge':
      return <TextWithBadgeField key={field.source} {...common} choices={field.choices} />;
    case 'expandable':
      return <ExpandableField key={field.source} {...common} />;
    case 'link':
      return <LinkField key={field.source} {...common} />;
    case 'linkonly':
      return (
        <UrlField
          key={field.source}
          {...common}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(e) => e.stopPropagation()}
        />
      );
    case 'images':
      return <ImageField key={field.source} {...common} src="url" />;
    default:
      if (field.type === 'boolean') return <SwitchField key={field.source} {...common} />;
      if (field.lookup?.source) {
        return <LookupField key={field.source} {...common} lookupSource={field.lookup.source} />;
      }
      if (field.choices) return <ChoiceField key={field.source} {...common} choices={field.choices} />;
      return field.type === 'integer' || field.type === 'number' ? (
        <NumberCell key={field.source} {...common} />
      ) : (
        <PlainField key={field.source} {...common} />
      );
  }
}
