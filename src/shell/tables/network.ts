/**
 * Network clients and what of their arguments goes to the peer, as data for `sends.ts`. Request
 * data is what the peer receives as content: URLs (with their query), bodies, form fields, request
 * items. Headers and credential options (`-H`, `-u`, `--oauth2-bearer`, `--password`) are not:
 * a token there authenticates the request.
 */

/** How a client's operands are read. */
export type OperandShape =
  /** Every operand is a URL (curl, wget). */
  | "urls"
  /** `[METHOD] URL [ITEM...]`: request items `k=v`, `k:=json`, `k==query`; `Header:value` items are headers (httpie, xh). */
  | "request-items"
  /** `HOST [PORT]`: the peer by name, the content from stdin (nc, telnet). */
  | "host"
  /** Address operands `TCP:host:port`, `OPENSSL:host:port` (socat). */
  | "addresses"
  /** Mail recipients `user@domain`: the domain is the peer, the message comes from stdin (mail, sendmail). */
  | "recipients";

/** One network client. */
export interface NetworkClient {
  readonly operands: OperandShape;
  /** Options whose value is request data or a URL. */
  readonly payload: readonly string[];
  /** Options whose value can name standard input as the body (`-d @-`, `-T -`, `--post-file=-`). */
  readonly stdinOptions?: readonly string[];
  /**
   * When standard input is the request's content: `always` (raw sockets), `piped` (when something
   * is piped or redirected in: httpie reads its body from a pipe), or only through `stdinOptions`.
   */
  readonly stdin?: "always" | "piped";
  /** Options whose value authenticates the request: a header or credentials (`-H`, `-u`, `--oauth2-bearer`). */
  readonly credentials?: readonly string[];
  /** Options whose value is a local file sent as the body (`curl -T f`, `wget --post-file f`). */
  readonly fileOptions?: readonly string[];
  /** Options whose value names a local file after `@` or `<` (`curl -d @f`, `-F x=@f`, `--data-urlencode k@f`). */
  readonly atFileOptions?: readonly string[];
  /** Options whose value is the request method (`curl -X DELETE`, `wget --method=DELETE`). */
  readonly methodOptions?: readonly string[];
}

const CURL: NetworkClient = {
  operands: "urls",
  payload: ["-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json", "-F", "--form", "--form-string", "--url"],
  stdinOptions: ["-d", "--data", "--data-binary", "--data-urlencode", "--data-ascii", "--json", "-F", "--form", "-T", "--upload-file"],
  credentials: ["-H", "--header", "-u", "--user", "--oauth2-bearer", "-U", "--proxy-user", "--proxy-header", "-b", "--cookie", "--pass", "--aws-sigv4"],
  fileOptions: ["-T", "--upload-file"],
  atFileOptions: ["-d", "--data", "--data-binary", "--data-urlencode", "--data-ascii", "--json", "-F", "--form"],
  methodOptions: ["-X", "--request"],
};

const WGET: NetworkClient = {
  operands: "urls",
  payload: ["--post-data", "--body-data"],
  stdinOptions: ["--post-file", "--body-file"],
  credentials: ["--header", "--user", "--password", "--http-user", "--http-password", "--proxy-user", "--proxy-password"],
  fileOptions: ["--post-file", "--body-file"],
  methodOptions: ["--method"],
};

const HTTPIE: NetworkClient = { operands: "request-items", payload: ["--raw"], stdin: "piped", credentials: ["-a", "--auth", "--bearer"] };

const SOCKET: NetworkClient = { operands: "host", payload: [], stdin: "always" };

const MAIL: NetworkClient = { operands: "recipients", payload: ["-s", "--subject"], stdin: "always" };

// prettier-ignore
export const NETWORK_CLIENTS: Readonly<Record<string, NetworkClient>> = {
  curl: CURL, "curl.exe": CURL,
  wget: WGET, wget2: WGET, "wget.exe": WGET,
  http: HTTPIE, https: HTTPIE, xh: HTTPIE, xhs: HTTPIE, httpie: HTTPIE,
  nc: SOCKET, ncat: SOCKET, netcat: SOCKET, "nc.traditional": SOCKET, "nc.openbsd": SOCKET, telnet: SOCKET,
  socat: { operands: "addresses", payload: [], stdin: "always" },
  mail: MAIL, mailx: MAIL, sendmail: MAIL, mutt: MAIL, "s-nail": MAIL, msmtp: MAIL,
};

/** Values of a `stdinOptions` option that name standard input (`-d @-`, `-F f=@-`, `-T -`, `--post-file=/dev/stdin`). */
export const STDIN_VALUES: readonly string[] = ["@-", "-", ".", "@/dev/stdin", "/dev/stdin", "/dev/fd/0"];

/** Suffixes of a form field whose value is standard input (`-F file=@-`, `-F text=<-`). */
export const STDIN_FIELD_SUFFIXES: readonly string[] = ["=@-", "=<-", "=@/dev/stdin", "=</dev/stdin"];

/** The replace string of `xargs -I{}`: request data holding it receives what is piped into xargs. */
export const XARGS_PLACEHOLDER = "{}";

/** Programs that print their arguments (`echo "$TOKEN" | curl -d @- URL` sends the token). */
export const ARGUMENT_PRINTERS: readonly string[] = ["echo", "printf", "print"];

/**
 * Programs that print the environment without operands (`env`, `printenv`, `export -p`); with
 * `names`, their operands are the names of the variables they print (`printenv TOKEN`).
 */
export const ENVIRONMENT_PRINTERS: Readonly<Record<string, "names" | "all-only">> = {
  env: "all-only",
  printenv: "names",
  export: "all-only",
  declare: "all-only",
  typeset: "all-only",
  set: "all-only",
};

/**
 * Programs a printed text passes through on its way to the transcript, changed or not
 * (`echo "$TOKEN" | base64`, `printenv | grep -i token`, `gh auth token | tee t.txt`): what a
 * command pipes into them still reaches the transcript when they print to it. Any other program
 * consumes its input (`| docker login --password-stdin`, `| wc -c`, `| gh secret set`).
 */
export const TEXT_PASS_THROUGH: readonly string[] = [
  "cat", "grep", "egrep", "fgrep", "rg", "head", "tail", "sed", "awk", "gawk", "tr", "base64", "base32", "xxd", "od",
  "hexdump", "rev", "tee", "sort", "uniq", "column", "less", "more", "jq", "yq", "fold", "nl", "paste", "sponge",
];

/** CLIs that print an access token or credentials (the policy's secret rules name the subcommands that do). */
export const CREDENTIAL_PRINTERS: readonly string[] = ["aws", "gcloud", "gh", "glab", "az", "heroku", "vault", "doctl", "fly", "flyctl", "firebase", "netlify", "vercel", "wrangler", "oci", "ibmcloud", "aliyun", "tsh", "npm", "security", "sops"];

/** Words a `grep` pattern holds when it picks secrets out of the environment (`printenv | grep -i token`). */
export const SECRET_PATTERN_WORDS: readonly string[] = ["token", "secret", "password", "passwd", "pass", "key", "credential", "auth", "private"];

/** socat address types that connect to a peer, before `:host:port`. */
export const SOCAT_PEERS: readonly string[] = ["tcp", "tcp4", "tcp6", "tcp-connect", "udp", "udp4", "udp6", "openssl", "ssl", "openssl-connect", "sctp", "sctp-connect"];

/** How interpreter code names the whole environment and sends data over the network (`code/env.ts`). */
export interface EnvironmentCode {
  /** Dotted names of the environment (`os.environ`, `process.env`, `ENV`); `::` and `->` count as dots. */
  readonly environment: readonly string[];
  /** Variables holding the whole environment (`%ENV`, `$_ENV`). */
  readonly environmentVars?: readonly string[];
  /** Methods that use the environment whole (`os.environ.copy()`, `ENV.to_h`); other members read one variable. */
  readonly wholeMethods: readonly string[];
  /** Dotted name prefixes of the calls that send data to a peer (`requests`, `urllib.request.urlopen`, `fetch`). */
  readonly network: readonly string[];
  /** Network modules loaded by a string (`require("https")`, `require "net/http"`). */
  readonly networkModules?: readonly string[];
  /** Reads of one variable: names followed by `["NAME"]` (`os.environ`, `ENV`) or `{NAME}` (perl `$ENV`). */
  readonly index: readonly string[];
  /** Calls that read one variable: `os.getenv("NAME")`, `ENV.fetch("NAME")`. */
  readonly call: readonly string[];
  /** Members that read one variable: `process.env.NAME`. */
  readonly member?: readonly string[];
}

/**
 * Where a variable read in interpreter code authenticates the request instead of being its data:
 * inside an argument or entry named one of these (`headers=`, `auth=`), lowercased.
 */
export const CODE_HEADER_NAMES: readonly string[] = ["headers", "header", "auth", "authorization", "proxy_auth", "basic_auth", "bearer", "credentials", "cookies", "cookie", "private-token"];

// prettier-ignore
export const ENVIRONMENT_CODE: Readonly<Record<"python" | "node" | "perl" | "ruby" | "php", EnvironmentCode>> = {
  python: {
    environment: ["os.environ", "environ"],
    wholeMethods: ["copy", "items", "keys", "values", "__repr__", "__str__"],
    network: ["requests", "httpx", "urllib.request", "urlopen", "urllib3", "http.client", "aiohttp", "socket", "smtplib", "ftplib", "Request", "pycurl"],
    networkModules: ["requests", "httpx", "urllib.request", "http.client", "socket"],
    index: ["os.environ", "environ"],
    call: ["os.environ.get", "environ.get", "os.getenv", "getenv"],
  },
  node: {
    environment: ["process.env"],
    wholeMethods: [],
    network: ["fetch", "http.request", "https.request", "http.get", "https.get", "axios", "got", "net.connect", "net.createConnection", "tls.connect", "XMLHttpRequest", "request", "undici", "ky"],
    networkModules: ["http", "https", "node:http", "node:https", "net", "node:net", "tls", "node:tls", "axios", "node-fetch", "undici", "got"],
    index: ["process.env"],
    call: [],
    member: ["process.env"],
  },
  ruby: {
    environment: ["ENV"],
    wholeMethods: ["to_h", "to_a", "to_hash", "to_s", "inspect", "each", "each_pair", "map", "select", "filter", "sort", "keys", "values", "reject", "filter_map"],
    network: ["Net.HTTP", "URI.open", "open-uri", "TCPSocket", "HTTParty", "Faraday", "RestClient", "Excon", "Socket"],
    networkModules: ["net/http", "net/https", "open-uri", "socket", "httparty", "faraday", "rest-client", "excon"],
    index: ["ENV"],
    call: ["ENV.fetch"],
  },
  perl: {
    environment: [],
    environmentVars: ["%ENV"],
    wholeMethods: [],
    network: ["LWP", "HTTP.Tiny", "IO.Socket", "Net.HTTP", "Mojo.UserAgent", "Furl", "post", "get"],
    index: ["$ENV"],
    call: [],
  },
  php: {
    environment: ["getenv"],
    environmentVars: ["$_ENV", "$_SERVER"],
    wholeMethods: [],
    network: ["curl_init", "curl_exec", "file_get_contents", "fsockopen", "stream_context_create", "stream_socket_client"],
    index: ["$_ENV", "$_SERVER"],
    call: ["getenv"],
  },
};

/** Programs that copy local files to `[user@]host:path` (`scp f host:`, `rsync -a dir/ host:dir/`). */
export const REMOTE_COPIERS: readonly string[] = ["scp", "rsync", "pscp", "sftp"];

/** Shells whose input or output tied to a socket hands the peer a shell (`bash -i >& /dev/tcp/h/p 0>&1`). */
export const SOCKET_SHELLS: readonly string[] = ["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox", "fish", "csh", "tcsh"];

/** Bash's network pseudo-files: a redirection to `/dev/tcp/HOST/PORT` opens a socket to the peer. */
export const SOCKET_FILES: readonly string[] = ["/dev/tcp/", "/dev/udp/"];
