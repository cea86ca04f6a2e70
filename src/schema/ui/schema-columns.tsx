import { useState } from 'react';
import { Box, Button, Chip, Link, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { MouseEvent } from 'react';
import {
  BooleanField,
  ChipField,
  ImageField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  SingleFieldList,
  TextField,
  UrlField,
  useCreatePath,
  useFieldValue,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { FieldModel } from '../resource-model.ts';
import { enumChoices } from './choices.ts';
import { useLookupChoices } from './lookup-choices.ts';

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

function BadgesField({ source, choices }: { source: string; choices?: string; sortable?: boolean }) {
  const values = useFieldValue({ source }) as unknown[] | undefined;
  const translate = useTranslate();
  if (!Array.isArray(values) || !values.length) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {values.map((value) => (
        <Chip
          key={String(value)}
          size="small"
          label={choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value)}
        />
      ))}
    </Stack>
  );
}

function TextWithBadgeField({ source, choices }: { source: string; choices?: string; sortable?: boolean }) {
  const value = useFieldValue({ source });
  const translate = useTranslate();
  if (value === undefined || value === null) return null;
  const label = choices ? translate(`choices.${choices}.${value}`, { _: String(value) }) : String(value);
  return <Chip size="small" variant="outlined" label={label} />;
}

function LookupField({ source, lookupSource }: { source: string; lookupSource: string; sortable?: boolean }) {
  const choices = useLookupChoices(lookupSource);
  return <SelectField source={source} choices={choices} translateChoice={false} />;
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
      return <BooleanField key={field.source} {...common} />;
    case 'select':
      return field.lookup?.source ? (
        <LookupField key={field.source} {...common} lookupSource={field.lookup.source} />
      ) : (
        <SelectField key={field.source} {...common} choices={enumChoices(field)} />
      );
    case 'select2':
      return field.lookup?.resource ? (
        <ReferenceField key={field.source} {...common} reference={field.lookup.resource} link={false} />
      ) : (
        <TextField key={field.source} {...common} />
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
      return field.type === 'integer' || field.type === 'number' ? (
        <NumberField key={field.source} {...common} />
      ) : (
        <TextField key={field.source} {...common} />
      );
  }
}
