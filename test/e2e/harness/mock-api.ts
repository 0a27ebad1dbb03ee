/**
 * A scripted stand-in for the Anthropic Messages API, good enough to drive the real `claude` client
 * end to end (see `/work/shared/reference/claude-code.md`, Appendix).
 *
 * The server listens on `127.0.0.1:<random port>`, records every request, and answers
 * `POST /v1/messages` with a server-sent-event stream (or a plain JSON message when the client did not
 * ask for a stream). What the "model" says is decided by a {@link Script}:
 *
 * - **Main-loop requests** (non-empty `tools` array) belong to an *actor*: the main thread, or a
 *   subagent recognised by a marker string in the request's system prompt (agents' markdown bodies carry
 *   markers such as `LANES-E2E-AGENT:backend`, see {@link agentMarker}). A declarative script gives each
 *   actor a list of turns; a function script decides every turn itself.
 * - **Side requests** (no or empty `tools`: session titles, summaries…) get a short text answer.
 * - `count_tokens` and every other path get a small JSON body.
 *
 * When a script has nothing left for an actor, the mock answers with a final text and records a
 * {@link MockApi.notes note} instead of hanging, so a wrong scenario fails on its assertions, not on a
 * timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// ---------------------------------------------------------------------------------------------------
// Messages API shapes (only the parts the harness reads; everything else stays `unknown`)
// ---------------------------------------------------------------------------------------------------

/** A JSON value as parsed from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** One content block of a Messages API message, as sent by the client. */
export interface ContentBlock {
  /** `text`, `tool_use`, `tool_result`, `image`, `thinking`, … */
  type: string;
  /** Text of a `text` block. */
  text?: string;
  /** Id of a `tool_use` block. */
  id?: string;
  /** Tool name of a `tool_use` block. */
  name?: string;
  /** Input of a `tool_use` block. */
  input?: JsonObject;
  /** The `tool_use` this `tool_result` answers. */
  tool_use_id?: string;
  /** Set on a `tool_result` when the tool failed or was denied. */
  is_error?: boolean;
  /** Content of a `tool_result`: a string or a list of blocks. */
  content?: string | ContentBlock[];
}

/** One message of the `messages` array of a request. */
export interface Message {
  /** `user` or `assistant`. */
  role: string;
  /** A plain string or a list of blocks. */
  content: string | ContentBlock[];
}

/** One entry of the `tools` array of a request (the client's tool definitions). */
export interface ToolDefinition {
  /** Tool name as the model must call it (`Bash`, `Agent`, `Skill`, `mcp__server__tool`, …). */
  name: string;
  /** Description shown to the model. */
  description?: string;
  /** JSON schema of the input. */
  input_schema?: JsonObject;
}

/** The body of a `POST /v1/messages` request, as far as the harness reads it. */
export interface MessagesRequestBody {
  /** Model id requested by the client; echoed back in the answer. */
  model?: string;
  /** System prompt: a string or a list of text blocks. */
  system?: string | ContentBlock[];
  /** The conversation so far. */
  messages?: Message[];
  /** Tool definitions; empty or absent on side requests. */
  tools?: ToolDefinition[];
  /** Whether the client asked for a server-sent-event stream. */
  stream?: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Scripts
// ---------------------------------------------------------------------------------------------------

/** Name of the main-thread actor. */
export const MAIN = "main";

/**
 * Actor of a subagent request whose system prompt carries no known marker (e.g. a built-in
 * `general-purpose` agent). Recognised by `cc_is_subagent=true` in the billing line the client puts at
 * the top of every subagent system prompt (observed on 2.1.330). Without this, such an agent would be
 * served the main thread's turns, and a main turn that spawns an agent would recurse.
 */
export const UNMARKED_SUBAGENT = "unmarked-subagent";

/** The marker convention for lanes end-to-end agents: put this string in the agent's markdown body. */
export function agentMarker(name: string): string {
  return `LANES-E2E-AGENT:${name}`;
}

/** A text block the scripted model says. */
export interface TextBlock {
  type: "text";
  /** The text. */
  text: string;
}

/** A tool call the scripted model makes. The id is generated unless given. */
export interface ToolUseBlock {
  type: "tool_use";
  /** Tool name, e.g. `Bash`, `Write`, `Agent`, `Skill`. */
  name: string;
  /** Tool input, sent as one `input_json_delta`. */
  input: JsonObject;
  /** Explicit tool_use id (default: `toolu_e2e_<n>`). */
  id?: string;
}

/** A block of a scripted turn. */
export type ScriptBlock = TextBlock | ToolUseBlock;

/**
 * One answer of the model. A turn containing a `tool_use` ends with `stop_reason: "tool_use"`;
 * a text-only turn ends the actor's loop (`end_turn`).
 */
export type Turn = ScriptBlock[];

/** Shorthand for a text block. */
export function text(value: string): TextBlock {
  return { type: "text", text: value };
}

/** Shorthand for a tool_use block. */
export function toolUse(name: string, input: JsonObject, id?: string): ToolUseBlock {
  return id === undefined ? { type: "tool_use", name, input } : { type: "tool_use", name, input, id };
}

/**
 * A subagent actor of a declarative script: its marker (default {@link agentMarker}(name)) and turns.
 */
export interface AgentActor {
  /** String searched in the request's system prompt (default `LANES-E2E-AGENT:<name>`). */
  marker?: string;
  /** The agent's turns, served in order. */
  turns: Turn[];
}

/**
 * The common case: a list of turns per actor.
 *
 * Turn `k` of an actor is served to a request of that actor whose `messages` hold `k` assistant
 * messages, i.e. after the results of turn `k-1` came back. The choice depends only on the request,
 * so a client retry gets the same answer, and a second spawn of the same agent replays its script
 * from turn 0.
 */
export interface DeclarativeScript {
  /** Turns of the main thread (requests whose system prompt carries no known marker). */
  main: Turn[];
  /** Subagents by actor name: a list of turns (marker `LANES-E2E-AGENT:<name>`) or a full entry. */
  agents?: Record<string, Turn[] | AgentActor>;
}

/** What a function script gets for each main-loop request. */
export interface TurnContext {
  /** The recorded request being answered. */
  request: RecordedRequest;
  /** `main` or the name of the agent whose marker was found in the system prompt. */
  actor: string;
  /** Number of assistant messages already in the request (0 for the first turn of a conversation). */
  turn: number;
  /** The mock itself, to inspect earlier requests. */
  api: MockApi;
}

/**
 * A custom flow: return the turn to serve, or `undefined` when the script has nothing to say (the
 * mock then answers with a final text and records a note).
 */
export type ScriptFunction = (context: TurnContext) => Turn | undefined;

/**
 * A function script plus the agent markers it wants recognised (so that `context.actor` is set).
 */
export interface FunctionScript {
  /** Actor name → marker (default: none; use {@link agentMarker}). */
  markers?: Record<string, string>;
  /** Decides each turn. */
  respond: ScriptFunction;
}

/** What {@link startMockApi} accepts. */
export type Script = DeclarativeScript | FunctionScript | ScriptFunction;

// ---------------------------------------------------------------------------------------------------
// Recorded traffic
// ---------------------------------------------------------------------------------------------------

/** How the mock classified a request. */
export type RequestKind = "main" | "side" | "count_tokens" | "other";

/** One request the mock received, with what it answered. */
export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number;
  /** HTTP method. */
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  url: string;
  /** Path without query. */
  path: string;
  /** Classification (main loop, side request, token count, anything else). */
  kind: RequestKind;
  /** Request headers (lower-case names; repeated headers joined with `, `). */
  headers: Record<string, string>;
  /** Parsed JSON body; `null` when empty or not JSON. */
  body: MessagesRequestBody | null;
  /** Raw body text. */
  rawBody: string;
  /** For main-loop requests: the actor (`main`, an agent name, or {@link UNMARKED_SUBAGENT}). */
  actor?: string;
  /** For main-loop requests: the turn index (assistant messages already present). */
  turn?: number;
  /** The blocks the mock answered with (messages requests only; tool_use ids filled in). */
  answer?: ServedBlock[];
  /** Set when the script had no turn for this request. */
  exhausted?: boolean;
}

/** A block as actually served (tool_use ids resolved). */
export type ServedBlock = TextBlock | (ToolUseBlock & { id: string });

/** A tool result the client sent back, with the call it answers when the mock made that call. */
export interface ToolResult {
  /** The `tool_use_id` of the result. */
  tool_use_id: string;
  /** `true` when the client marked the result as an error (denied, failed, unknown tool…). */
  is_error: boolean;
  /** All text of the result content joined with `\n`. */
  text: string;
  /** Actor whose conversation carried the result. */
  actor: string;
  /** The tool name of the matching served `tool_use`, when known. */
  toolName?: string;
  /** The input of the matching served `tool_use`, when known. */
  toolInput?: JsonObject;
  /** Index of the first request that carried this result. */
  requestIndex: number;
}

/** A served tool call with the actor that made it. */
export interface ServedToolUse {
  /** Actor that made the call. */
  actor: string;
  /** The tool_use id. */
  id: string;
  /** Tool name. */
  name: string;
  /** Tool input. */
  input: JsonObject;
  /** Index of the request this call answered. */
  requestIndex: number;
}

/** A running mock API. */
export interface MockApi {
  /** `http://127.0.0.1:<port>`: use as `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** The port the server listens on. */
  readonly port: number;
  /** Every request in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Anomalies: exhausted scripts, unparseable bodies, script errors. Empty in a clean run. */
  readonly notes: readonly string[];
  /** Main-loop requests, optionally only those of one actor. */
  mainRequests(actor?: string): RecordedRequest[];
  /** The last main-loop request of an actor (default `main`); `undefined` if there was none. */
  lastRequest(actor?: string): RecordedRequest | undefined;
  /**
   * Tool results the client sent back (each `tool_use_id` once, first occurrence), optionally per actor.
   * Within one request the client orders results by completion, not by call: look results of parallel
   * calls up with {@link MockApi.toolResult}.
   */
  toolResults(actor?: string): ToolResult[];
  /** The tool result for one served tool_use id. */
  toolResult(toolUseId: string): ToolResult | undefined;
  /** Tool calls the mock served, optionally per actor. */
  toolUses(actor?: string): ServedToolUse[];
  /** Actors seen in main-loop requests, in order of first appearance. */
  actors(): string[];
  /** Stops the server (open connections are destroyed). Safe to call twice. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Request inspection helpers (pure)
// ---------------------------------------------------------------------------------------------------

/** All text of a request's system prompt (string or text blocks joined with `\n`). */
export function systemText(request: RecordedRequest | MessagesRequestBody | null | undefined): string {
  const body = toBody(request);
  const system = body?.system;
  if (system === undefined) return "";
  if (typeof system === "string") return system;
  return system.map((block) => block.text ?? "").join("\n");
}

/**
 * Every text the user side sent: string contents and `text` blocks of `user` messages, in order
 * (tool results excluded; see {@link toolResultText}). A skill body, `<command-args>`, hook
 * `additionalContext` and system reminders all arrive here.
 */
export function userTexts(request: RecordedRequest | MessagesRequestBody | null | undefined): string[] {
  const body = toBody(request);
  const out: string[] = [];
  for (const message of body?.messages ?? []) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") {
      out.push(message.content);
      continue;
    }
    for (const block of message.content) {
      if (block.type === "text" && typeof block.text === "string") out.push(block.text);
    }
  }
  return out;
}

/** Names of the tools offered in a request. */
export function toolNames(request: RecordedRequest | MessagesRequestBody | null | undefined): string[] {
  return (toBody(request)?.tools ?? []).map((tool) => tool.name);
}

/** Text of a `tool_result` block's content (string, or text blocks joined with `\n`). */
export function toolResultText(block: ContentBlock): string {
  const content = block.content;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((inner) => (inner.type === "text" ? (inner.text ?? "") : `[${inner.type}]`)).join("\n");
}

/** Number of assistant messages in a request (the turn index of the conversation). */
export function assistantTurns(request: RecordedRequest | MessagesRequestBody | null | undefined): number {
  return (toBody(request)?.messages ?? []).filter((message) => message.role === "assistant").length;
}

function toBody(request: RecordedRequest | MessagesRequestBody | null | undefined): MessagesRequestBody | null {
  if (request === null || request === undefined) return null;
  if ("rawBody" in request && "index" in request) return (request as RecordedRequest).body;
  return request as MessagesRequestBody;
}

// ---------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------

interface NormalisedScript {
  markers: Array<{ actor: string; marker: string }>;
  respond: (context: TurnContext) => Turn | undefined;
}

function normalise(script: Script): NormalisedScript {
  if (typeof script === "function") return { markers: [], respond: script };
  if ("respond" in script) {
    return {
      markers: Object.entries(script.markers ?? {}).map(([actor, marker]) => ({ actor, marker })),
      respond: script.respond,
    };
  }
  const turnsByActor = new Map<string, Turn[]>([[MAIN, script.main]]);
  const markers: Array<{ actor: string; marker: string }> = [];
  for (const [actor, entry] of Object.entries(script.agents ?? {})) {
    if (actor === MAIN || actor === UNMARKED_SUBAGENT)
      throw new Error(`mock-api: agent actor may not be called \`${actor}\``);
    const turns = Array.isArray(entry) ? entry : entry.turns;
    const marker = Array.isArray(entry) ? agentMarker(actor) : (entry.marker ?? agentMarker(actor));
    turnsByActor.set(actor, turns);
    markers.push({ actor, marker });
  }
  return {
    markers,
    respond: ({ actor, turn }) => turnsByActor.get(actor)?.[turn],
  };
}

/**
 * Finds the actor of a request: the agent whose marker occurs in the system prompt, as a whole token
 * (so `LANES-E2E-AGENT:worker` does not match inside `LANES-E2E-AGENT:worker2`); the longest marker
 * wins; no marker → {@link UNMARKED_SUBAGENT} when the client flagged the request as a subagent's,
 * else `main`.
 */
export function findActor(system: string, markers: ReadonlyArray<{ actor: string; marker: string }>): string {
  let best: { actor: string; marker: string } | undefined;
  for (const entry of markers) {
    if (!containsToken(system, entry.marker)) continue;
    if (best === undefined || entry.marker.length > best.marker.length) best = entry;
  }
  if (best !== undefined) return best.actor;
  return system.includes("cc_is_subagent=true") ? UNMARKED_SUBAGENT : MAIN;
}

function containsToken(haystack: string, needle: string): boolean {
  if (needle === "") return false;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const after = haystack.charAt(at + needle.length);
    if (!/[A-Za-z0-9_-]/.test(after)) return true;
    from = at + 1;
  }
}

/**
 * Starts the mock on `127.0.0.1:0`. Always {@link MockApi.close close} it (e.g. in `afterEach`).
 *
 * @example
 * const api = await startMockApi({
 *   main: [[toolUse("Bash", { command: "echo hi" })], [text("done")]],
 * });
 */
export async function startMockApi(script: Script): Promise<MockApi> {
  const { markers, respond } = normalise(script);
  const requests: RecordedRequest[] = [];
  const notes: string[] = [];
  const served = new Map<string, ServedToolUse>();
  let nextToolId = 1;
  let nextMessageId = 1;

  const sockets = new Set<Socket>();
  // the request callback uses `handle` and `self`, both defined below before any request can arrive
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString("utf8"));
      } catch (error) {
        notes.push(`mock-api internal error on ${req.method ?? "?"} ${req.url ?? "?"}: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "mock internal error" } }));
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  const self: MockApi = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    notes,
    mainRequests: (actor) => requests.filter((r) => r.kind === "main" && (actor === undefined || r.actor === actor)),
    lastRequest: (actor = MAIN) => self.mainRequests(actor).at(-1),
    toolResults: (actor) =>
      collectToolResults(requests, served).filter((r) => actor === undefined || r.actor === actor),
    toolResult: (id) => collectToolResults(requests, served).find((r) => r.tool_use_id === id),
    toolUses: (actor) => [...served.values()].filter((u) => actor === undefined || u.actor === actor),
    actors: () => [...new Set(requests.flatMap((r) => (r.kind === "main" && r.actor !== undefined ? [r.actor] : [])))],
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse, rawBody: string): void => {
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? url;
    const method = req.method ?? "GET";
    let body: MessagesRequestBody | null = null;
    if (rawBody.trim() !== "") {
      try {
        body = JSON.parse(rawBody) as MessagesRequestBody;
      } catch {
        notes.push(`request #${requests.length} ${method} ${url}: body is not JSON`);
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const record: RecordedRequest = {
      index: requests.length,
      method,
      url,
      path,
      kind: "other",
      headers,
      body,
      rawBody,
    };
    requests.push(record);

    if (method === "POST" && path.endsWith("/messages/count_tokens")) {
      record.kind = "count_tokens";
      sendJson(res, { input_tokens: 100 });
      return;
    }
    if (method !== "POST" || !path.endsWith("/v1/messages") || body === null) {
      sendJson(res, {});
      return;
    }

    const model = typeof body.model === "string" ? body.model : "claude-mock";
    const stream = body.stream === true;
    if ((body.tools ?? []).length === 0) {
      record.kind = "side";
      const answer: ServedBlock[] = [text("Mock session")];
      record.answer = answer;
      sendMessage(res, stream, `msg_e2e_${nextMessageId++}`, model, answer, "end_turn");
      return;
    }

    record.kind = "main";
    const actor = findActor(systemText(body), markers);
    const turn = assistantTurns(body);
    record.actor = actor;
    record.turn = turn;

    let scripted: Turn | undefined;
    try {
      scripted = respond({ request: record, actor, turn, api: self });
    } catch (error) {
      notes.push(`request #${record.index} (${actor}, turn ${turn}): script threw: ${String(error)}`);
    }
    if (scripted === undefined || scripted.length === 0) {
      record.exhausted = true;
      notes.push(`request #${record.index} (${actor}, turn ${turn}): script has no turn; answered with a final text`);
      scripted = [text(`[lanes e2e mock: no scripted turn ${turn} for ${actor}]`)];
    }
    const answer: ServedBlock[] = scripted.map((block) => {
      if (block.type === "text") return block;
      const id = block.id ?? `toolu_e2e_${String(nextToolId++).padStart(4, "0")}`;
      served.set(id, { actor, id, name: block.name, input: block.input, requestIndex: record.index });
      return { ...block, id };
    });
    record.answer = answer;
    const stop = answer.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
    sendMessage(res, stream, `msg_e2e_${nextMessageId++}`, model, answer, stop);
  };

  return self;
}

function collectToolResults(
  requests: readonly RecordedRequest[],
  served: ReadonlyMap<string, ServedToolUse>,
): ToolResult[] {
  const seen = new Map<string, ToolResult>();
  for (const request of requests) {
    if (request.kind !== "main") continue;
    for (const message of request.body?.messages ?? []) {
      if (message.role !== "user" || typeof message.content === "string") continue;
      for (const block of message.content) {
        if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
        if (seen.has(block.tool_use_id)) continue;
        const call = served.get(block.tool_use_id);
        const result: ToolResult = {
          tool_use_id: block.tool_use_id,
          is_error: block.is_error === true,
          text: toolResultText(block),
          actor: request.actor ?? MAIN,
          requestIndex: request.index,
        };
        if (call !== undefined) {
          result.toolName = call.name;
          result.toolInput = call.input;
        }
        seen.set(block.tool_use_id, result);
      }
    }
  }
  return [...seen.values()];
}

function sendJson(res: ServerResponse, value: unknown): void {
  const payload = JSON.stringify(value);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

const USAGE = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function sendMessage(
  res: ServerResponse,
  stream: boolean,
  id: string,
  model: string,
  blocks: readonly ServedBlock[],
  stopReason: "tool_use" | "end_turn",
): void {
  if (!stream) {
    sendJson(res, {
      id,
      type: "message",
      role: "assistant",
      model,
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: USAGE,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const event = (type: string, data: object): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...USAGE, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      event("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    event("content_block_stop", { index });
  });
  event("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  });
  event("message_stop", {});
  res.end();
}
