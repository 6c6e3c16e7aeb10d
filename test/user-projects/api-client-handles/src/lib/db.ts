/** An in-memory stand-in for a connection pool (pg, mysql2): a connection is a class instance with state. */
export interface Booking {
  room: string;
  guest: string;
}

const bookings: Booking[] = [];
const rooms = ['Ada', 'Babbage', 'Curie', 'Dijkstra'];

export class Connection {
  private open = true;

  async freeRooms(): Promise<string[]> {
    this.check();
    return rooms.filter(r => !bookings.some(b => b.room === r));
  }

  async insertBooking(booking: Booking): Promise<number> {
    this.check();
    bookings.push(booking);
    return bookings.length;
  }

  release(): void {
    this.open = false;
  }

  private check(): void {
    if (!this.open) throw new Error('connection released');
  }
}

export class Pool {
  constructor(readonly url: string) {}

  async connect(): Promise<Connection> {
    return new Connection();
  }
}

export const pool = new Pool(process.env.DATABASE_URL ?? 'memory://bookings');
