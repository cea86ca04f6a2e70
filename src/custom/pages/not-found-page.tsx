import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';

/** Where a path that does not exist, or that the user may not open, leads (spec 01 §2.3). */
export function NotFoundPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 4, textAlign: 'center' }} data-testid="not-found">
      <Typography component="h1" variant="h3" gutterBottom>
        404
      </Typography>
      <Typography gutterBottom>{translate('pages.not_found')}</Typography>
      <Button component={Link} to="/" variant="contained">
        {translate('pages.go_home')}
      </Button>
    </Box>
  );
}
