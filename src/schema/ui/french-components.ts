/** The French texts of the UI libraries, a chunk of their own: see component-locales.ts. */
export { frFR as muiTexts } from '@mui/material/locale';
export { frFR as pickerTexts } from '@mui/x-date-pickers/locales';
export { fr as dateLocale } from 'date-fns/locale/fr';
