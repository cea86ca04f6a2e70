import { Alert, Box, Button, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useQuery } from '@tanstack/react-query';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { useProfile } from '../../schema/ui/profile.ts';
import { debugApi, debugKeys } from './api.ts';
import { dateTexts } from '../../schema/dates.ts';
import { features } from '../../schema/features.ts';

export interface DebugPageProps {
  /** The app's version and build, and what it was built for (src/app/environment.ts). */
  app: { version: string; build: string; mode: string; production: boolean; live: boolean; country: string };
}

const featureNames = new Map<number, string>(
  Object.entries(features).flatMap(([name, ids]) => Object.values(ids).map((id) => [id as number, name] as const)),
);

/**
 * /debug (spec 01 §2.3, operator company): what support asks for in a ticket, on one page and copied in
 * one click: the app's and the gateway's versions and builds, the database's, and the caller's access
 * as the gateway resolved it. Nothing secret: no token, key nor connection string.
 */
export function DebugPage({ app }: DebugPageProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const api = debugApi(useGateway());
  const profile = useProfile();
  const { data, error, isPending } = useQuery({
    queryKey: debugKeys.info(),
    queryFn: api.info,
  });

  // A module's option is configured on each of its policies (basic, advance...): shown once.
  const options = [
    ...new Map(
      (data?.access.options ?? []).map((option) => [
        `${featureNames.get(option.feature_id) ?? option.feature_id}.${option.option}`,
        option,
      ]),
    ).entries(),
  ];
  const levelWord = (level: string | null) => (level ? translate(`roles.level.${level}`) : '–');
  const report = data
    ? [
        `${translate('debug.sections.app')}: ${app.version} (${app.build}), ${app.mode}, ${navigator.userAgent}`,
        `${translate('debug.sections.gateway')}: ${data.gateway.version} (${data.gateway.build}), Node ${data.gateway.node}, ${translate('debug.started_at')} ${data.gateway.started_at}`,
        `${translate('debug.sections.database')}: ${data.database.engine}, ${data.database.server_version ?? '–'}, ${translate('debug.last_migration')} ${data.database.last_migration ?? '–'}`,
        `${translate('debug.user')}: ${data.access.username}, ${translate(`choices.partner_type.${data.access.partner_type}`, { _: data.access.partner_type })}${data.access.partner_id ? ` ${data.access.partner_id}` : ''}${profile?.partnerName ? ` (${profile.partnerName})` : ''}, ${translate('debug.role')} ${data.access.role_name}${data.access.super_admin ? `, ${translate('debug.super_admin')}` : ''}`,
        `${translate('debug.levels_title')}: ${data.access.levels.map((entry) => `${entry.feature}=${entry.level}`).join(', ')}`,
        `${translate('debug.permissions')}: ${data.access.permissions.join(', ')}`,
        `${translate('debug.options')}: ${
          options.map(([name, option]) => `${name}=${option.shown ? 'on' : 'off'}`).join(', ') || '–'
        }`,
        `${translate('debug.language')}: ${locale}, ${new Date().toISOString()}`,
      ].join('\n')
    : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(report);
      notify('debug.copied', { type: 'info' });
    } catch {
      notify('debug.not_copied', { type: 'warning' });
    }
  };

  const row = (label: string, value: string) => (
    <>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </>
  );
  const grid = {
    display: 'grid',
    gridTemplateColumns: { xs: '1fr', sm: '14rem 1fr' },
    columnGap: 2,
    rowGap: 0.5,
    m: 0,
  };

  return (
    <Box sx={{ py: 2 }} data-testid="debug-page">
      <Title title={translate('debug.title')} />
      <Stack
        direction="row"
        justifyContent="space-between"
        alignItems="center"
        sx={{ mb: 2 }}
        useFlexGap
        flexWrap="wrap"
      >
        <Typography variant="h5" component="h1">
          {translate('debug.title')}
        </Typography>
        {/* Shown once there is something to copy, never disabled first: a contained button turning from
            disabled grey to the primary colour fades for 250 ms, and an accessibility check caught in that
            fade measured white text on a pale background (a colour-contrast failure now and then). */}
        {data && (
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            {translate('debug.copy')}
          </Button>
        )}
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('debug.intro')}
      </Typography>
      {isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
      {error && <Alert severity="error">{(error as Error).message}</Alert>}
      {data && (
        <Stack spacing={2}>
          <Card component="section" aria-labelledby="debug-versions">
            <CardContent>
              <Typography variant="h6" component="h2" id="debug-versions" sx={{ mb: 1 }}>
                {translate('debug.versions')}
              </Typography>
              <Box component="dl" sx={grid}>
                {row(translate('debug.sections.app'), `${app.version} (${app.build})`)}
                {row(
                  translate('debug.environment'),
                  [
                    translate(`debug.modes.${app.mode}`),
                    translate(app.production ? 'debug.production' : 'debug.not_production'),
                    translate(`choices.country.${app.country}`, { _: app.country }),
                  ].join(' · '),
                )}
                {row(
                  translate('debug.sections.gateway'),
                  `${data.gateway.version} (${data.gateway.build}), Node ${data.gateway.node}`,
                )}
                {row(translate('debug.started_at'), dates.dateTime(data.gateway.started_at))}
                {row(
                  translate('debug.sections.database'),
                  `${data.database.engine} · ${data.database.server_version ?? '–'}`,
                )}
                {row(translate('debug.last_migration'), data.database.last_migration ?? '–')}
                {row(translate('debug.browser'), navigator.userAgent)}
              </Box>
            </CardContent>
          </Card>
          <Card component="section" aria-labelledby="debug-access">
            <CardContent>
              <Typography variant="h6" component="h2" id="debug-access" sx={{ mb: 1 }}>
                {translate('debug.access')}
              </Typography>
              <Box component="dl" sx={grid}>
                {row(translate('debug.user'), data.access.username)}
                {row(
                  translate('debug.partner'),
                  `${translate(`choices.partner_type.${data.access.partner_type}`, { _: data.access.partner_type })}${
                    profile?.partnerName ? ` · ${profile.partnerName}` : ''
                  }${data.access.partner_id ? ` (${data.access.partner_id})` : ''}`,
                )}
                {row(
                  translate('debug.role'),
                  `${data.access.role_name}${data.access.super_admin ? ` · ${translate('debug.super_admin')}` : ''}`,
                )}
                {row(translate('debug.permissions'), data.access.permissions.join(', '))}
              </Box>
              <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1 }}>
                {translate('debug.levels_title')}
              </Typography>
              <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1}>
                {data.access.levels.map((entry) => (
                  <Chip
                    key={entry.feature}
                    size="small"
                    label={`${translate(`features.${entry.feature}`, { _: entry.feature })}: ${levelWord(entry.level)}`}
                  />
                ))}
              </Stack>
              <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1 }}>
                {translate('debug.options')}
              </Typography>
              {options.length ? (
                <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1}>
                  {options.map(([name, option]) => (
                    <Chip
                      key={name}
                      size="small"
                      variant={option.shown ? 'filled' : 'outlined'}
                      label={`${translate(`features.${featureNames.get(option.feature_id)}`, {
                        _: featureNames.get(option.feature_id) ?? String(option.feature_id),
                      })} · ${translate(`debug.option_names.${option.option}`, { _: option.option })}: ${translate(
                        option.shown ? 'debug.on' : 'debug.off',
                      )}`}
                    />
                  ))}
                </Stack>
              ) : (
                <Typography color="text.secondary">{translate('debug.no_options')}</Typography>
              )}
            </CardContent>
          </Card>
        </Stack>
      )}
    </Box>
  );
}
