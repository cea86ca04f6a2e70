/** Cities of the demo network with a centre to scatter service points around. */
export interface City {
  country: 'DK' | 'NO' | 'SE' | 'PL' | 'FI';
  name: string;
  zip: string;
  lat: number;
  lng: number;
  timeZone: string;
}

export const cities: City[] = [
  { country: 'DK', name: 'København', zip: '1050', lat: 55.6761, lng: 12.5683, timeZone: 'Europe/Copenhagen' },
  { country: 'DK', name: 'Aarhus', zip: '8000', lat: 56.1629, lng: 10.2039, timeZone: 'Europe/Copenhagen' },
  { country: 'DK', name: 'Odense', zip: '5000', lat: 55.4038, lng: 10.4024, timeZone: 'Europe/Copenhagen' },
  { country: 'DK', name: 'Aalborg', zip: '9000', lat: 57.0488, lng: 9.9217, timeZone: 'Europe/Copenhagen' },
  { country: 'NO', name: 'Oslo', zip: '0150', lat: 59.9139, lng: 10.7522, timeZone: 'Europe/Oslo' },
  { country: 'NO', name: 'Bergen', zip: '5003', lat: 60.3913, lng: 5.3221, timeZone: 'Europe/Oslo' },
  { country: 'NO', name: 'Trondheim', zip: '7010', lat: 63.4305, lng: 10.3951, timeZone: 'Europe/Oslo' },
  { country: 'SE', name: 'Stockholm', zip: '11120', lat: 59.3293, lng: 18.0686, timeZone: 'Europe/Stockholm' },
  { country: 'SE', name: 'Göteborg', zip: '41101', lat: 57.7089, lng: 11.9746, timeZone: 'Europe/Stockholm' },
  { country: 'SE', name: 'Malmö', zip: '21120', lat: 55.605, lng: 13.0038, timeZone: 'Europe/Stockholm' },
  { country: 'SE', name: 'Uppsala', zip: '75310', lat: 59.8586, lng: 17.6389, timeZone: 'Europe/Stockholm' },
  { country: 'PL', name: 'Warszawa', zip: '00-001', lat: 52.2297, lng: 21.0122, timeZone: 'Europe/Warsaw' },
  { country: 'PL', name: 'Kraków', zip: '30-001', lat: 50.0647, lng: 19.945, timeZone: 'Europe/Warsaw' },
  { country: 'PL', name: 'Gdańsk', zip: '80-001', lat: 54.352, lng: 18.6466, timeZone: 'Europe/Warsaw' },
  { country: 'PL', name: 'Wrocław', zip: '50-001', lat: 51.1079, lng: 17.0385, timeZone: 'Europe/Warsaw' },
  { country: 'PL', name: 'Poznań', zip: '60-001', lat: 52.4064, lng: 16.9252, timeZone: 'Europe/Warsaw' },
  { country: 'FI', name: 'Helsinki', zip: '00100', lat: 60.1699, lng: 24.9384, timeZone: 'Europe/Helsinki' },
  { country: 'FI', name: 'Tampere', zip: '33100', lat: 61.4978, lng: 23.761, timeZone: 'Europe/Helsinki' },
  { country: 'FI', name: 'Turku', zip: '20100', lat: 60.4518, lng: 22.2666, timeZone: 'Europe/Helsinki' },
];

export const streets: Record<City['country'], string[]> = {
  DK: ['Vestergade', 'Nørregade', 'Strøget', 'Algade', 'Søndergade', 'Østerbrogade'],
  NO: ['Storgata', 'Kirkegata', 'Torggata', 'Dronningens gate', 'Bogstadveien'],
  SE: ['Drottninggatan', 'Storgatan', 'Kungsgatan', 'Sveavägen', 'Vasagatan'],
  PL: ['ul. Marszałkowska', 'ul. Długa', 'ul. Floriańska', 'ul. Piotrkowska', 'ul. Świdnicka'],
  FI: ['Mannerheimintie', 'Hämeenkatu', 'Aleksanterinkatu', 'Kauppakatu', 'Puistokatu'],
};
