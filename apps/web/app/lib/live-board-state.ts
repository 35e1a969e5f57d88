// The live board screen's state: the board as last heard, the stream's connection, and the reducer that applies
// the stream's events to it.
import {
  applyLiveChanges,
  LIVE_EVENTS,
  type LiveBoard,
  liveBoardSchema,
  liveChangesSchema,
} from "@trainwise/contract/live-board";
import type { StreamConnection } from "./event-stream.ts";

export interface LiveBoardState {
  board: LiveBoard;
  connection: StreamConnection;
}

export type LiveBoardAction =
  | { type: "event"; event: string; data: string }
  | { type: "connection"; connection: StreamConnection };

export function liveBoardReducer(state: LiveBoardState, action: LiveBoardAction): LiveBoardState {
  if (action.type === "connection") {
    return state.connection === action.connection ? state : { ...state, connection: action.connection };
  }
  // A whole board (the first event of every connection) replaces what the screen shows; changes apply to it.
  if (action.event === LIVE_EVENTS.board) {
    const board = liveBoardSchema.safeParse(JSON.parse(action.data));
    return board.success ? { ...state, board: board.data } : state;
  }
  if (action.event === LIVE_EVENTS.changes) {
    const changes = liveChangesSchema.safeParse(JSON.parse(action.data));
    return changes.success ? { ...state, board: applyLiveChanges(state.board, changes.data) } : state;
  }
  return state;
}
