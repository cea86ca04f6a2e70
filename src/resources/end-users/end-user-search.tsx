import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { Link } from 'react-router-dom';
import { HttpError, Title, useDataProvider, useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import { configuredCountry } from '../../schema/configured-country.ts';
import { searchablePhone } from '../../schema/phone-search.ts';

type FilterType = 'phone' | 'email';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The end user's deletion state: marked, and how many shipments it still waits for. */
export function DeletionState({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  if (!record.marked_for_deletion) return <span>-</span>;
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      label={translate('end_users.marked_waiting', { smart_count: Number(record.active_pieces ?? 0) })}
    />
  );
}

/**
 * End user search (spec 02 §7: `filter_type`, `filter_value`): by phone number, read in the
 * configured country when typed without its prefix, or by e-mail. A malformed number is refused
 * here, with the gateway's own message, before any call.
 */
export function EndUserSearch() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // The country by its name in the user's language ("Pologne"), not its code.
  const countryName = new Intl.DisplayNames([locale], { type: 'region' }).of(configuredCountry) ?? configuredCountry;
  const dataProvider = useDataProvider();
  const [type, setType] = useState<FilterType>('phone');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [found, setFound] = useState<{ rows: RaRecord[]; total: number }>();
  const [failure, setFailure] = useState<string>();

  const search = async () => {
    setFailure(undefined);
    const typed = value.trim();
    if (!typed) return setError(translate('validation.required'));
    if (type === 'phone' && !searchablePhone(typed, configuredCountry)) {
      return setError(translate('validation.invalid_phone'));
    }
    if (type === 'email' && !EMAIL.test(typed)) return setError(translate('validation.email'));
    setError(undefined);
    try {
      const page = await dataProvider.getList('end-users', {
        filter: { filter_type: type, filter_value: typed, country: configuredCountry },
        pagination: { page: 1, perPage: 50 },
        sort: { field: 'enduser_id', order: 'DESC' },
      });
      setFound({ rows: page.data, total: page.total ?? page.data.length });
    } catch (caught) {
      const message = caught instanceof HttpError ? caught.message : String(caught);
      setFailure(message);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="own-list-page">
      <Title title={translate('menu.end_user_search')} />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('menu.end_user_search')}
      </Typography>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack
            component="form"
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            onSubmit={(event) => {
              event.preventDefault();
              void search();
            }}
          >
            <TextField
              select
              label={translate('end_users.filter_type')}
              value={type}
              onChange={(event) => {
                setType(event.target.value as FilterType);
                setError(undefined);
              }}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="phone">{translate('end_users.by_phone')}</MenuItem>
              <MenuItem value="email">{translate('end_users.by_email')}</MenuItem>
            </TextField>
            <TextField
              label={translate(type === 'phone' ? 'end_users.phone' : 'end_users.email')}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              error={Boolean(error)}
              helperText={
                error ??
                (type === 'phone'
                  ? translate('end_users.phone_hint', {
                      country: countryName,
                      dial: `+${getCountryCallingCode(configuredCountry as CountryCode)}`,
                    })
                  : ' ')
              }
              sx={{ flexGrow: 1 }}
            />
            <Box>
              <Button type="submit" variant="contained" startIcon={<SearchIcon />} sx={{ mt: 1 }}>
                {translate('ra.action.search')}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>
      {failure && <Alert severity="error">{failure}</Alert>}
      {found && found.rows.length === 0 && <Alert severity="info">{translate('end_users.none_found')}</Alert>}
      {found && found.rows.length > 0 && (
        <Card>
          <Table size="small" aria-label={translate('menu.end_user_search')}>
            <TableHead>
              <TableRow>
                {['enduser_id', 'name', 'phone', 'email', 'country', 'marked_for_deletion'].map((field) => (
                  <TableCell key={field}>{translate(`resources.end-users.fields.${field}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {found.rows.map((row) => (
                <TableRow key={row.id} hover>
                  <TableCell>{row.enduser_id}</TableCell>
                  <TableCell>
                    <Link to={`/end-users/${row.id}/show`}>{row.name}</Link>
                  </TableCell>
                  <TableCell>{row.phone ?? '-'}</TableCell>
                  <TableCell>{row.email ?? '-'}</TableCell>
                  <TableCell>{row.country ?? '-'}</TableCell>
                  <TableCell>
                    <DeletionState record={row} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </Box>
  );
}
