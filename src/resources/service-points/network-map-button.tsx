import { Button } from '@mui/material';
import MapIcon from '@mui/icons-material/Map';
import { useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';

/** The list head's "Map" toggle: the same filters, on the map. */
export function NetworkMapButton() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const filter = params.get('filter');
  return (
    <Button
      component={Link}
      to={`/service-points/map${filter ? `?filter=${encodeURIComponent(filter)}` : ''}`}
      size="small"
      startIcon={<MapIcon />}
    >
      {translate('service_points.network_map.map')}
    </Button>
  );
}
