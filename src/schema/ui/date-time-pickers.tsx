import type { ReactNode } from 'react';
import { format, isValid, parse, parseISO } from 'date-fns';
import { enUS as englishDates } from 'date-fns/locale/en-US';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { enUS as englishPickerTexts } from '@mui/x-date-pickers/locales';
import { FieldTitle, InputHelperText, useInput, useLocaleState, useResourceContext } from 'react-admin';
import type { FieldModel } from '../resource-model.ts';
import { frenchComponents } from './component-locales.ts';

/*
 * MUI's date and time pickers, named and laid out in the app's language (month and day names, the
 * order of day and month, 24-hour clock in French, the pickers' own button texts). Loaded only when
 * a screen shows a date or time: the library stays out of the entry chunk.
 */

const english = { dates: englishDates, texts: englishPickerTexts };

/** French comes with the app's French messages (component-locales.ts). */
function pickerLocale(locale: string) {
  const french = locale === 'fr-FR' ? frenchComponents() : undefined;
  return french ? { dates: french.dateLocale, texts: french.pickerTexts } : english;
}

export function LocalisedPickers({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const { dates, texts } = pickerLocale(locale);
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={dates}
      localeText={texts.components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

/** Spec 01 §9: the time picker offers every half hour, 48 entries in one column. */
const TIME_STEP_MINUTES = 30;
const TIME_ENTRIES = (24 * 60) / TIME_STEP_MINUTES;

/** How each schema format stores its value (schemas/README.md, Formats); `date-time` is ISO 8601. */
const storedPatterns: Record<string, string> = { time: 'HH:mm', 'date-dmy': 'dd-MM-yyyy', date: 'yyyy-MM-dd' };

export type DateTimeFormat = 'time' | 'date-dmy' | 'date' | 'date-time';

export function asDate(value: unknown, kind: DateTimeFormat): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  if (kind === 'date-time') return parseISO(value);
  return parse(value, kind === 'time' && value.length > 5 ? 'HH:mm:ss' : storedPatterns[kind], new Date());
}

/**
 * The stored text of a picked value. A half-typed one stays as the picker reads it ("Invalid Date"),
 * so that the schema's format rule names the problem rather than the value silently emptying.
 */
export function storedValue(date: Date | null, kind: DateTimeFormat): string | null {
  if (!date) return null;
  if (!isValid(date)) return String(date);
  return kind === 'date-time' ? date.toISOString() : format(date, storedPatterns[kind]);
}

/** A react-admin input for a schema field with format `time`, `date-dmy`, `date` or `date-time`. */
export function SchemaDateTimeInput({
  field,
  kind,
  disabled,
  defaultValue,
}: {
  field: FieldModel;
  kind: DateTimeFormat;
  disabled: boolean;
  defaultValue?: unknown;
}) {
  const resource = useResourceContext();
  const {
    field: input,
    fieldState,
    isRequired,
  } = useInput({
    source: field.source,
    disabled,
    defaultValue,
    isRequired: field.required && !disabled,
  });
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  const common = {
    label: <FieldTitle source={field.source} resource={resource} isRequired={isRequired} />,
    value: asDate(input.value, kind),
    onChange: (date: Date | null) => input.onChange(storedValue(date, kind)),
    disabled,
    slotProps: {
      textField: {
        name: input.name,
        onBlur: input.onBlur,
        required: isRequired,
        error: Boolean(error),
        helperText: <InputHelperText error={error} />,
      },
    },
  };
  return (
    <LocalisedPickers>
      {kind === 'time' ? (
        <TimePicker
          {...common}
          ampm={false}
          timeSteps={{ minutes: TIME_STEP_MINUTES }}
          thresholdToRenderTimeInASingleColumn={TIME_ENTRIES}
        />
      ) : kind === 'date-time' ? (
        <DateTimePicker {...common} ampm={false} />
      ) : (
        <DatePicker {...common} />
      )}
    </LocalisedPickers>
  );
}

/** A date and time field outside react-admin's forms (the log search), its value as `yyyy-MM-ddTHH:mm`. */
export function LocalDateTimeField({
  label,
  value,
  onChange,
  required,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  const date = value ? parse(value, "yyyy-MM-dd'T'HH:mm", new Date()) : null;
  return (
    <LocalisedPickers>
      <DateTimePicker
        label={label}
        ampm={false}
        value={date}
        onChange={(picked) => onChange(picked && isValid(picked) ? format(picked, "yyyy-MM-dd'T'HH:mm") : '')}
        slotProps={{ textField: { required, fullWidth: false } }}
      />
    </LocalisedPickers>
  );
}
