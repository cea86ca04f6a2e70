import { useMemo } from 'react';
import {
  ChipField,
  Labeled,
  ReferenceArrayField,
  ReferenceField,
  SimpleShowLayout,
  SingleFieldList,
  TabbedShowLayout,
  TabbedShowLayoutTabs,
  useI18nProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useProfile } from './profile.ts';
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import { optionShowsField } from '../feature-options.ts';
import { cellContext, columnPlan } from './schema-columns.tsx';
import { FieldValue } from './field-words.tsx';
import { useLookupChoices } from './lookup-choices.ts';
import { choicesById, LookupBadgeList } from './lookup-badges.tsx';
import { RecordHistory } from './record-history.tsx';
import { registeredPanel, useReadableTabs, useTabPanels } from './tab-panels.tsx';
import { registeredValue, useValueKinds, type ValueKinds } from './input-kinds.tsx';

/** Values a reader is not shown, as the audit trail masks them. */
const SECRET_FIELD = /password|secret|api_key|token/i;

/** An empty value reads as the CSV export writes it (spec 02 §2), not as a blank under its label. */
const EMPTY = '-';

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A tab named `log` shows the record's audit trail (as in the form). */
const LOG_TAB = 'log';

interface ValueProps {
  field: FieldModel;
  /** Read by react-admin's Labeled for the label `resources.<name>.fields.<source>`. */
  source: string;
}

function LookupValue({ field }: ValueProps) {
  const record = useRecordContext();
  const choices = useLookupChoices(field.lookup?.source);
  const value: unknown = record?.[field.source];
  if (isEmpty(value)) return <>{EMPTY}</>;
  if (Array.isArray(value) && field.column.type === 'array_with_badges') {
    return <LookupBadgeList values={value} choices={choicesById(choices)} />;
  }
  const nameOf = (id: unknown) => choices.find((choice) => String(choice.id) === String(id))?.name ?? String(id);
  return <>{Array.isArray(value) ? value.map(nameOf).join(', ') : nameOf(value)}</>;
}

/** A value as the list shows it, but as text where the list links to the edit page. */
function PlainValue({ field }: ValueProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const locale = useI18nProvider().getLocale();
  const render = useMemo(
    () =>
      columnPlan(
        field.column.type === 'link' ? { ...field, column: { ...field.column, type: 'text' } } : field,
        cellContext(translate, locale, () => ''),
      ),
    [field, translate, locale],
  );
  if (!record) return null;
  const value: unknown = record[field.source];
  if (isEmpty(value)) return <>{EMPTY}</>;
  // A record page reads a yes/no in words ("Yes", "Active"), where a list shows a mark (issue 24.2).
  if (field.type === 'boolean') return <FieldValue field={field} value={value} />;
  return <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{render(record)}</span>;
}

/**
 * One field's value: the display its resource registered for its kind, names for references and
 * lookups, labels for choices, marks for switches.
 */
function recordValue(field: FieldModel, valueKinds: ValueKinds) {
  const registered = registeredValue(valueKinds, field);
  if (registered) return registered;
  const { resource, label } = field.lookup ?? {};
  if (resource && field.type === 'array') {
    return (
      <ReferenceArrayField key={field.source} source={field.source} reference={resource} emptyText={EMPTY}>
        <SingleFieldList linkType={false}>
          <ChipField source={label ?? 'name'} size="small" />
        </SingleFieldList>
      </ReferenceArrayField>
    );
  }
  if (resource) {
    return (
      <ReferenceField key={field.source} source={field.source} reference={resource} link={false} emptyText={EMPTY} />
    );
  }
  if (field.lookup?.source) return <LookupValue key={field.source} source={field.source} field={field} />;
  return <PlainValue key={field.source} source={field.source} field={field} />;
}

/**
 * A field no one types in (`readOnly`: what the gateway derives or keeps, a badge, a date it sets) on an
 * edit form: its value under its label, as the read-only view shows it, not a greyed-out input.
 */
export function ReadOnlyValue({ field }: { field: FieldModel }) {
  const valueKinds = useValueKinds();
  return (
    <Labeled source={field.source} sx={{ mb: 2 }}>
      {recordValue(field, valueKinds)}
    </Labeled>
  );
}

/**
 * The record for a user who may read but not change it: every field with its label, no inputs,
 * no Save, no Delete. Laid out in the form's tabs.
 */
export function RecordView({ model }: { model: ResourceModel }) {
  const panels = useTabPanels();
  const tabs = useReadableTabs(model);
  const valueKinds = useValueKinds();
  const permissions = useProfile()?.permissions;
  const fields = model.fields.filter(
    (field) =>
      !SECRET_FIELD.test(field.source) &&
      field.input.form !== false &&
      (!field.input.option || (permissions !== undefined && optionShowsField(permissions, model, field))),
  );
  const values = (tab?: string) =>
    fields
      .filter((field) => !tab || (field.input.tab ?? model.tabs[0]) === tab)
      .map((field) => recordValue(field, valueKinds));
  if (!model.tabs.length) return <SimpleShowLayout>{values()}</SimpleShowLayout>;
  return (
    // At 390 px a page's tabs scroll rather than cut the last ones off (a piece's Logs, issue 24).
    <TabbedShowLayout
      tabs={<TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />}
    >
      {tabs.map((tab) => (
        <TabbedShowLayout.Tab key={tab} label={`resources.${model.name}.tabs.${tab}`}>
          {tab === LOG_TAB ? <RecordHistory model={model} /> : (registeredPanel(panels, tab, model) ?? values(tab))}
        </TabbedShowLayout.Tab>
      ))}
    </TabbedShowLayout>
  );
}
