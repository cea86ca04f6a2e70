import type { MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { useCreatePath, useGetManyAggregate, useLocaleState, useTranslate, type Identifier } from 'react-admin';
import { dateTexts } from '../dates.ts';
import { numberFormat } from '../number-texts.ts';
import { readableValue, type ReadableWords } from '../readable-value.ts';
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import { useLookupChoices } from './lookup-choices.ts';
import { LookupRecordLink, useLookupRecordResource } from './lookup-record-link.tsx';
import { modelOfResource } from './registry.ts';

/**
 * A stored value as a person reads it in a history or a log (issue 24.2), through its field's schema:
 * a choice by its label, a reference by the record's name (a link to it), a list item by its name,
 * a boolean as Yes/No (Active/Deactive for a switch), a day or moment in the language's format,
 * photos as "3 photos", an object as labelled values. Never JSON, never an id where a name exists.
 */

/** An empty value in a change line. */
export const NOTHING = '—';

export const isBlank = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** A change from nothing to nothing (or to the same value) is not a change. */
export function isChange(change: { from: unknown; to: unknown }): boolean {
  if (isBlank(change.from) && isBlank(change.to)) return false;
  return JSON.stringify(change.from) !== JSON.stringify(change.to);
}

/** The resource named `name` (`hardware`, `service-points`), from the schemas that declare one. */
export function resourceModel(name: string | undefined): ResourceModel | undefined {
  return name ? modelOfResource(name) : undefined;
}

/** A field of a resource by its source; undefined for a field the schema no longer has. */
export function fieldOf(model: ResourceModel | undefined, source: string): FieldModel | undefined {
  return model?.fields.find((field) => field.source === source);
}

function useWords(field: FieldModel | undefined, resource: string | undefined): ReadableWords {
  const translate = useTranslate();
  const switchField = field?.column.type === 'switch';
  return {
    name: field?.choices
      ? (value) => translate(`choices.${field.choices}.${value}`, { _: String(value) })
      : (value) => String(value),
    key: (key) =>
      translate(`resources.${resource}.fields.${field?.source}.${key}`, {
        _: translate(`table.value_keys.${key}`, { _: key.replace(/_/g, ' ') }),
      }),
    yes: translate(switchField ? 'table.active' : 'table.yes'),
    no: translate(switchField ? 'table.deactive' : 'table.no'),
  };
}

const isPhoto = (field: FieldModel | undefined, value: unknown) =>
  field?.column.type === 'images' ||
  (Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'object' && item !== null && 'url' in item));

/** A referenced record's name, linked to its page; its id while the name loads or when it is gone. */
export function ReferenceName({ resource, id, label }: { resource: string; id: Identifier; label?: string }) {
  const createPath = useCreatePath();
  const model = resourceModel(resource);
  const { data } = useGetManyAggregate(resource, { ids: [id] }, { staleTime: 60_000 });
  const record = data?.find((item) => String(item.id) === String(id));
  const name = record?.[label ?? model?.representation ?? 'name'];
  const text = name === undefined || name === null || name === '' ? String(id) : String(name);
  return (
    <Link
      component={RouterLink}
      to={createPath({ resource, id, type: 'edit' })}
      // Inside a clickable row (the logs), following the link is not opening the row.
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {text}
    </Link>
  );
}

function LookupName({ source, value }: { source: string; value: unknown }) {
  const choices = useLookupChoices(source);
  const linkTo = useLookupRecordResource(source);
  const choice = (item: unknown) => choices.find((entry) => String(entry.id) === String(item));
  const name = (item: unknown) => choice(item)?.name ?? String(item);
  if (Array.isArray(value)) return <>{value.map(name).join(', ')}</>;
  // A partner's name links to its record (`x-resource.lookupLists`); an id no longer listed stays text.
  return (
    <LookupRecordLink resource={choice(value) ? linkTo : undefined} id={value}>
      {name(value)}
    </LookupRecordLink>
  );
}

/**
 * One stored value of `field` (of the resource `resource`) as words. `field` undefined (a field the
 * schema does not describe) still reads as words: Yes/No, labelled values, never JSON.
 */
export function FieldValue({
  field,
  resource,
  value,
}: {
  field: FieldModel | undefined;
  resource?: string;
  value: unknown;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const words = useWords(field, resource);
  if (isBlank(value)) return <>{NOTHING}</>;
  if (isPhoto(field, value)) {
    const count = Array.isArray(value) ? value.length : 1;
    return <>{translate('history.photos', { smart_count: count })}</>;
  }
  const reference = field?.lookup?.resource && !field.lookup.source ? field.lookup.resource : undefined;
  if (reference && (typeof value === 'string' || typeof value === 'number')) {
    return <ReferenceName resource={reference} id={value} label={field?.lookup?.label} />;
  }
  if (reference && Array.isArray(value)) {
    return (
      <>
        {value.map((id, index) => (
          <span key={String(id)}>
            {index > 0 && ', '}
            <ReferenceName resource={reference} id={id as Identifier} label={field?.lookup?.label} />
          </span>
        ))}
      </>
    );
  }
  if (field?.lookup?.source) return <LookupName source={field.lookup.source} value={value} />;
  if (field?.format === 'date-time' || field?.format === 'date' || field?.format === 'date-dmy') {
    const dates = dateTexts(locale);
    return <>{field.format === 'date-time' ? dates.dateTime(value) : dates.date(value)}</>;
  }
  if (typeof value === 'number' && !field?.choices && (field?.type === 'number' || field?.type === 'integer')) {
    return <>{numberFormat(locale, field.input.step).format(value)}</>;
  }
  return <>{readableValue(value, words) || NOTHING}</>;
}
