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
import { datePatterns } from '../dates.ts';
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
  const [locale] = useLocaleState();
  const patterns = datePatterns(locale);
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
    // MUI marks the required field itself (`required` below): react-admin's mark too read "From * *".
    label: <FieldTitle source={field.source} resource={resource} isRequired={false} />,
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
          format={patterns.time}
        />
      ) : kind === 'date-time' ? (
        <DateTimePicker {...common} ampm={false} format={patterns.dateTime} />
      ) : (
        <DatePicker {...common} format={patterns.date} />
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
  const [locale] = useLocaleState();
  const date = value ? parse(value, "yyyy-MM-dd'T'HH:mm", new Date()) : null;
  return (
    <LocalisedPickers>
      <DateTimePicker
        label={label}
        ampm={false}
        format={datePatterns(locale).dateTime}
        value={date}
        onChange={(picked) => onChange(picked && isValid(picked) ? format(picked, "yyyy-MM-dd'T'HH:mm") : '')}
        slotProps={{ textField: { required, fullWidth: false } }}
      />
    </LocalisedPickers>
  );
}

/**
 * A day picked outside react-admin's forms (the quick actions' deadline, a report's period), its value
 * as `yyyy-MM-dd`, typed and shown in the language's day format.
 */
export function LocalDateField({
  label,
  value,
  onChange,
  required,
  minDate,
  disabled,
  name,
  size,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  minDate?: Date;
  disabled?: boolean;
  name?: string;
  size?: 'small' | 'medium';
  /** A message under the field, shown as an error. */
  error?: string;
}) {
  const [locale] = useLocaleState();
  return (
    <LocalisedPickers>
      <DatePicker
        label={label}
        format={datePatterns(locale).date}
        value={asDate(value, 'date')}
        minDate={minDate}
        disabled={disabled}
        onChange={(picked) => onChange(picked && isValid(picked) ? format(picked, storedPatterns.date) : '')}
        slotProps={{
          textField: { required, fullWidth: false, name, size, error: Boolean(error), helperText: error },
        }}
      />
    </LocalisedPickers>
  );
}

/**
 * A list filter on a day (`x-filter` kinds `date` and `date-range`): the language's day format, the
 * value sent to the gateway as `yyyy-MM-dd`. Never the browser's native date input.
 */
export function DateFilterPicker({ source, label }: { source: string; label?: string }) {
  const resource = useResourceContext();
  const [locale] = useLocaleState();
  const { field: input } = useInput({ source });
  return (
    <LocalisedPickers>
      <DatePicker
        label={<FieldTitle source={source} resource={resource} label={label} />}
        format={datePatterns(locale).date}
        value={asDate(input.value, 'date')}
        onChange={(picked) => {
          if (!picked) input.onChange(null);
          else if (isValid(picked)) input.onChange(format(picked, storedPatterns.date));
        }}
        slotProps={{
          textField: {
            name: input.name,
            onBlur: input.onBlur,
            size: 'small',
            fullWidth: false,
            // As the list's other filters (filled, same height), and no wider than a day needs, so
            // that a search's filters hold on one line (issue 24.5).
            variant: 'filled',
            sx: { width: '10rem' },
          },
        }}
      />
    </LocalisedPickers>
  );
}
