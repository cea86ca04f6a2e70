import { Alert, Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

/**
 * A screen whose business area is not built yet: said plainly, never a crash. The area's name is the
 * page's title (in the top bar and as its heading); the sentence does not repeat it, so that it reads
 * right whatever the name's gender and number (« Propriétaires de sites », « Tableau de bord »).
 */
export function NotAvailablePage({ area }: { area: string }) {
  const translate = useTranslate();
  const title = translate(`menu.${area}`, { _: area });
  return (
    <Box sx={{ p: 3 }} data-testid="not-available">
      <Title title={title} />
      <Typography component="h1" variant="h5" gutterBottom>
        {title}
      </Typography>
      <Alert severity="info">{translate('pages.not_available')}</Alert>
    </Box>
  );
}
