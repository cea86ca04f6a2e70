import { useEffect, useState } from 'react';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  AppBar,
  Box,
  Card,
  CardActionArea,
  CardContent,
  CircularProgress,
  Grid,
  Toolbar,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import { useTranslate } from 'react-admin';

interface HelpFile {
  faqs?: { question: string; answer: string }[];
  tutorial_links?: ({ title?: string; url: string; thumbnail?: string } | string)[];
}

export const HELP_FILE = 'maintenance_app_help/maintenance_app_help.json';

/** Public help of the maintenance app: FAQs (one panel open at a time) and video tutorials. */
export function HelpPage({ filesBase, companyName }: { filesBase: string; companyName: string }) {
  const translate = useTranslate();
  const [help, setHelp] = useState<HelpFile | null>();
  const [open, setOpen] = useState(0);

  useEffect(() => {
    let current = true;
    fetch(`${filesBase}/${HELP_FILE}`)
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { success?: boolean; data?: HelpFile };
        if (current) setHelp(body.success === false ? null : (body.data ?? null));
      })
      .catch(() => current && setHelp(null));
    return () => {
      current = false;
    };
  }, [filesBase]);

  const faqs = help?.faqs ?? [];
  const links = (help?.tutorial_links ?? []).map((link) => (typeof link === 'string' ? { url: link } : link));

  return (
    <Box>
      <AppBar position="static">
        <Toolbar>
          <Typography variant="h6" component="span">
            {companyName} · {translate('help.title')}
          </Typography>
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ p: 3, maxWidth: 960, mx: 'auto' }}>
        {help === undefined && <CircularProgress aria-label={translate('ra.page.loading')} />}
        {help !== undefined && !faqs.length && !links.length && (
          <Alert severity="warning">{translate('help.no_data')}</Alert>
        )}
        {faqs.length > 0 && (
          <Box component="section" sx={{ mb: 4 }}>
            <Typography variant="h5" component="h1" gutterBottom>
              {translate('help.faqs')}
            </Typography>
            {faqs.map((faq, index) => (
              <Accordion
                key={faq.question}
                expanded={open === index}
                onChange={(_, expanded) => setOpen(expanded ? index : -1)}
              >
                <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                  <Typography>{faq.question}</Typography>
                </AccordionSummary>
                <AccordionDetails>
                  <Typography color="text.secondary">{faq.answer}</Typography>
                </AccordionDetails>
              </Accordion>
            ))}
          </Box>
        )}
        {links.length > 0 && (
          <Box component="section">
            <Typography variant="h5" component="h2" gutterBottom>
              {translate('help.tutorials')}
            </Typography>
            <Grid container spacing={2}>
              {links.map((link) => (
                <Grid key={link.url} size={{ xs: 12, sm: 6, md: 4 }}>
                  <Card>
                    <CardActionArea component="a" href={link.url} target="_blank" rel="noopener noreferrer">
                      <Box
                        sx={{
                          height: 120,
                          bgcolor: 'grey.900',
                          display: 'flex',
                          alignItems: 'center',
                          justifyContent: 'center',
                        }}
                      >
                        {link.thumbnail ? (
                          <img src={link.thumbnail} alt="" style={{ maxHeight: '100%', maxWidth: '100%' }} />
                        ) : (
                          <PlayCircleIcon sx={{ fontSize: 56, color: 'common.white' }} />
                        )}
                      </Box>
                      <CardContent>
                        <Typography>{link.title ?? link.url}</Typography>
                      </CardContent>
                    </CardActionArea>
                  </Card>
                </Grid>
              ))}
            </Grid>
          </Box>
        )}
      </Box>
    </Box>
  );
}
