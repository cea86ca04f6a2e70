import {
  FormControlLabel,
  IconButton,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  InputHelperText,
  useNotify,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type ValidationErrorMessage,
} from 'react-admin';
import { useFormContext, useFormState, useWatch, type FieldError } from 'react-hook-form';
import type { InputKindProps, ValueKindProps } from '../../schema/ui/input-kinds.tsx';
import {
  changedDay,
  copiedToAllDays,
  HALF_HOURS,
  WEEKDAYS,
  weekdayLabel,
  type OpeningHours,
  type Weekday,
} from './opening-hours.ts';

type TimeField = 'open' | 'close';

/** react-admin keeps the schema validator's `{ message, args }` as the form error's message. */
const messageOf = (error: FieldError | undefined) => error?.message as ValidationErrorMessage | undefined;

/**
 * `x-input.kind: "opening-hours"`: Monday to Sunday, each closed or open with its opening and closing
 * time picked in half hours (spec 01 §9), and a button per day that copies its hours to every day.
 * A closing time not after the opening time is refused by the schema (`x-time-after`), here and in
 * the gateway, on that day's closing time.
 */
export function OpeningHoursInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const resource = useResourceContext();
  const { setValue, trigger } = useFormContext();
  const hours = (useWatch({ name: field.source }) ?? {}) as OpeningHours;
  const { errors } = useFormState({ name: field.source });
  const dayErrors = (errors[field.source] ?? {}) as Partial<Record<Weekday, Partial<Record<TimeField, FieldError>>>>;

  // Each day's times by name: the form keeps a nested error only under a field it knows by name.
  const timeNames = WEEKDAYS.flatMap((day) => [`${field.source}.${day}.open`, `${field.source}.${day}.close`]);
  const save = (next: OpeningHours) => {
    setValue(field.source, next, { shouldDirty: true });
    void trigger(timeNames);
  };
  const change = (day: Weekday, update: Partial<(typeof hours)[Weekday] & object>) =>
    save({ ...hours, [day]: changedDay(hours[day], update) });
  const copyToAll = (day: Weekday) => {
    save(copiedToAllDays(hours, day));
    notify('service_points.hours.copied', { type: 'info', messageArgs: { day: translate(weekdayLabel(day)) } });
  };

  const timeSelect = (day: Weekday, which: TimeField) => {
    const error = messageOf(dayErrors[day]?.[which]);
    const dayName = translate(weekdayLabel(day));
    return (
      <TextField
        select
        size="small"
        value={hours[day]?.[which] ?? ''}
        onChange={(event) => change(day, { [which]: event.target.value })}
        disabled={hours[day]?.closed === true}
        error={Boolean(error)}
        helperText={error ? <InputHelperText error={error} /> : undefined}
        slotProps={{
          htmlInput: { 'aria-label': `${dayName} ${translate(`service_points.hours.${which}`)}` },
          select: { native: true },
        }}
        sx={{ minWidth: 110 }}
      >
        <option value="" disabled>
          --:--
        </option>
        {HALF_HOURS.map((time) => (
          <option key={time} value={time}>
            {time}
          </option>
        ))}
      </TextField>
    );
  };

  return (
    <fieldset style={{ border: 0, padding: 0, margin: '8px 0', width: '100%' }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 1 }}>
        {translate(`resources.${resource}.fields.${field.source}`)}
      </Typography>
      <Table size="small" sx={{ maxWidth: 720 }} data-testid="opening-hours">
        <TableHead>
          <TableRow>
            <TableCell>{translate('service_points.hours.day')}</TableCell>
            <TableCell>{translate('service_points.hours.closed')}</TableCell>
            <TableCell>{translate('service_points.hours.open')}</TableCell>
            <TableCell>{translate('service_points.hours.close')}</TableCell>
            <TableCell>{translate('service_points.hours.copy_to_all')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {WEEKDAYS.map((day) => {
            const dayName = translate(weekdayLabel(day));
            return (
              <TableRow key={day} data-day={day}>
                <TableCell component="th" scope="row">
                  {dayName}
                </TableCell>
                <TableCell>
                  <FormControlLabel
                    control={
                      <Switch
                        checked={hours[day]?.closed === true}
                        onChange={(event) => change(day, { closed: event.target.checked })}
                        slotProps={{
                          input: { 'aria-label': `${dayName} ${translate('service_points.hours.closed')}` },
                        }}
                      />
                    }
                    label=""
                  />
                </TableCell>
                <TableCell>{timeSelect(day, 'open')}</TableCell>
                <TableCell>{timeSelect(day, 'close')}</TableCell>
                <TableCell>
                  <Tooltip title={translate('service_points.hours.copy_day', { day: dayName })}>
                    <span>
                      <IconButton
                        aria-label={translate('service_points.hours.copy_day', { day: dayName })}
                        onClick={() => copyToAll(day)}
                        disabled={!hours[day]}
                      >
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </fieldset>
  );
}

/** The hours of the read-only view: one line per weekday. */
export function OpeningHoursValue({ field }: ValueKindProps) {
  const translate = useTranslate();
  const record = useRecordContext();
  const hours = (record?.[field.source] ?? {}) as OpeningHours;
  return (
    <Table size="small" sx={{ maxWidth: 420 }} data-testid="opening-hours">
      <TableBody>
        {WEEKDAYS.map((day) => {
          const hoursOfDay = hours[day];
          const text = !hoursOfDay
            ? translate('service_points.hours.not_set')
            : hoursOfDay.closed
              ? translate('service_points.hours.closed')
              : `${hoursOfDay.open ?? '--:--'} – ${hoursOfDay.close ?? '--:--'}`;
          return (
            <TableRow key={day}>
              <TableCell component="th" scope="row">
                {translate(weekdayLabel(day))}
              </TableCell>
              <TableCell>{text}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
