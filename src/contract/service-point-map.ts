/**
 * One service point of the network map (`GET webtool/servicepoints?opname=map_points`, issue 31.3): what the
 * gateway sends and the map draws, compact so that a whole network comes in one answer.
 */
export interface MapPoint {
  id: number;
  name: string;
  lat: number;
  lng: number;
  /** The service point status code (ServicePointStatus). */
  status: number | null;
  /** Tickets of the point that are not Closed; null when the caller may not read tickets. */
  open_tickets: number | null;
  /** Alerts of the point not yet taken up by a ticket, or whose ticket is not Closed; null when not readable. */
  open_alerts: number | null;
}
