import { Alert, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A screen whose business area is not built yet: said plainly, never a crash. */
export function NotAvailablePage({ area }: { area: string }) {
  const translate = useTranslate();
  const title = translate(`menu.${area}`, { _: area });
  return (
    <Box sx={{ p: 3 }} data-testid="not-available">
      <Typography component="h1" variant="h5" gutterBottom>
        {title}
      </Typography>
      <Alert severity="info">{translate('pages.not_available', { area: title })}</Alert>
    </Box>
  );
}
