import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { NoticeToast } from './notice-toast.tsx';
import { useTranslate } from './translation.tsx';

/**
 * Records the session that the sign-in just completed and opens `returnUrl` (or home) in the app.
 * The app passes it: before the admin is loaded, and inside react-admin once it is.
 */
export type EnterApp = (returnUrl: string | undefined) => Promise<void>;

/** Fallback layout of the authentication screens: a centred card and a footer. */
export function AuthLayout({
  title,
  companyName,
  children,
}: {
  title: string;
  companyName: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'grey.100' }}>
      <Box component="main" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
        <Card sx={{ width: '100%', maxWidth: 400 }}>
          <CardContent>
            <Typography component="h1" variant="h5" gutterBottom>
              {title}
            </Typography>
            {children}
          </CardContent>
        </Card>
      </Box>
      <Box component="footer" sx={{ p: 2, textAlign: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {translate('auth.footer', { year: new Date().getFullYear(), company: companyName })}
        </Typography>
      </Box>
      <NoticeToast />
    </Box>
  );
}
