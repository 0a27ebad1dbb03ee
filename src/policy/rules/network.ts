/** Remote code: downloads run straight by a shell or an interpreter. */
import type { RuleSpec } from "./types.ts";

export const networkRules: readonly RuleSpec[] = [
  {
    id: "net.remote-code",
    effect: "deny",
    remoteCode: {
      fetchers: [
        "curl", "curl.exe", "wget", "wget2", "wget.exe", "fetch", "http", "https", "xh", "xhs", "curlie", "aria2c", "lwp-request", "GET",
        "lynx", "nc", "ncat", "socat", "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "start-bitstransfer",
        // downloads inside interpreter code (`exec(urlopen(URL).read())`), as the shell analysis names them
        "urllib", "requests", "httpx", "urllib3", "aiohttp", "axios", "got", "undici", "open-uri", "httparty", "faraday", "net-http", "lwp",
        "furl", "mojo", "file_get_contents", "curl_exec",
      ],
    },
    why: "it runs code downloaded from the network without anyone reading it",
    instead: "download the script to a file, show it to the user, and run it only after review",
  },
];
