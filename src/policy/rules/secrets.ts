/**
 * Secrets beyond key and credential files (those are path rules in `paths.ts`): shell histories,
 * system password databases, keychains and browser credential stores, the commands that print a
 * stored secret, and the shapes that send data to a host by a raw socket or hand it a shell.
 *
 * Secrets leaving the machine (`send` rules, facts of src/shell/sends.ts): a secret-named
 * variable's value in a request's data (body, form, URL, stdin), a CLI's access token piped into
 * a request, the whole environment. A token in a header or auth option, a request to this machine
 * or its private network, and a variable named after the peer's own service are usage, not leaks.
 *
 * How keys are told from public material: a path rule names private material by file name
 * (`id_*`, `*.key`, `*.pem` unless the name says certificate, chain, CA or public); reading or
 * deleting it counts, writing and using it do not (`openssl genrsa -out server.key`, `ssh-add`,
 * `curl --key`). Certificates, `*.pub`, `known_hosts` and `authorized_keys` are public.
 */
import { CREDENTIAL_PRINTERS } from "../../shell/tables/network.ts";
import type { RuleSpec } from "./types.ts";

/** Secret-looking environment variable names (compared case-insensitively). */
const SECRET_VARS = "*secret*|*token*|*password*|*passwd*|*_key|*_key_*|*apikey*|*credential*|*private*|*_pat|database_url|*_dsn";

/** Peers that are this machine: a request to them leaves nothing. */
const LOCAL_HOSTS = ["localhost", "*.localhost", "127.*", "::1", "0:0:0:0:0:0:0:1", "0.0.0.0", "host.docker.internal", "*.local", "*.internal", "*.localdomain", "*.lan", "*.home.arpa"];

/** Secret-looking names that are not secrets: public and publishable keys, pagination and cache keys, object keys. */
const NOT_SECRET_VARS = ["*public_key", "*pub_key", "*publishable_key", "*page_token", "*next_token", "*continuation_token", "*sync_token", "*cache_key", "*sort_key", "*partition_key", "*object_key", "*primary_key", "*idempotency_key", "s3_key", "*_s3_key", "*_anon_key"];


const GITHUB = ["github.com", "*.github.com", "*.githubusercontent.com", "ghcr.io", "*.ghcr.io", "*.githubassets.com", "*.github.io", "*.actions.githubusercontent.com"];
const GOOGLE = ["googleapis.com", "*.googleapis.com", "*.google.com", "*.googleusercontent.com", "*.gcr.io", "gcr.io", "*.pkg.dev", "*.cloudfunctions.net", "*.run.app", "*.appspot.com", "*.firebaseio.com", "*.firebaseapp.com", "*.web.app"];
const AZURE = ["*.azure.com", "*.azure.net", "*.windows.net", "*.microsoft.com", "*.microsoftonline.com", "*.azure-api.net", "*.azurewebsites.net", "*.azurecr.io", "*.azureedge.net", "*.visualstudio.com", "dev.azure.com"];
const AWS = ["amazonaws.com", "*.amazonaws.com", "*.amazonaws.com.cn", "*.aws", "*.on.aws", "*.amazon.com", "*.cloudfront.net"];

/**
 * Well-known tokens and the hosts of their service (variable name wildcards, lowercase): sent as a
 * credential or as data to any other host, such a token is exfiltration (net.token-to-other-host).
 * `token_hosts` in lanes.yaml adds hosts and names (a GitHub Enterprise host, a private registry).
 */
export const TOKEN_HOSTS: Readonly<Record<string, readonly string[]>> = {
  "github_token": GITHUB, "gh_token": GITHUB, "github_pat": GITHUB, "gh_pat": GITHUB, "github_*_token": GITHUB, "gh_*_token": GITHUB,
  "gitlab_token": ["gitlab.com", "*.gitlab.com", "gitlab.*", "*.gitlab.*"], "gl_token": ["gitlab.com", "*.gitlab.com", "gitlab.*", "*.gitlab.*"], "gitlab_*_token": ["gitlab.com", "*.gitlab.com", "gitlab.*", "*.gitlab.*"],
  "bitbucket_token": ["bitbucket.org", "*.bitbucket.org"], "bitbucket_app_password": ["bitbucket.org", "*.bitbucket.org"],
  "npm_token": ["registry.npmjs.org", "*.npmjs.org", "npmjs.com", "*.npmjs.com", "registry.yarnpkg.com"], "node_auth_token": ["registry.npmjs.org", "*.npmjs.org", "registry.yarnpkg.com", "npm.pkg.github.com"],
  "pypi_token": ["upload.pypi.org", "pypi.org", "test.pypi.org", "*.pypi.org"], "pypi_api_token": ["upload.pypi.org", "pypi.org", "test.pypi.org", "*.pypi.org"], "twine_password": ["upload.pypi.org", "pypi.org", "test.pypi.org", "*.pypi.org"],
  "cargo_registry_token": ["crates.io", "*.crates.io"], "gem_host_api_key": ["rubygems.org", "*.rubygems.org"],
  "dockerhub_token": ["docker.io", "*.docker.io", "docker.com", "*.docker.com"], "docker_password": ["docker.io", "*.docker.io", "docker.com", "*.docker.com"],
  "aws_secret_access_key": AWS, "aws_session_token": AWS, "aws_access_key_id": AWS, "aws_bearer_token_*": AWS,
  "google_api_key": GOOGLE, "google_*_key": GOOGLE, "google_*_token": GOOGLE, "google_*_secret": GOOGLE, "gcloud_*": GOOGLE, "gcp_*_key": GOOGLE, "gemini_api_key": GOOGLE, "firebase_token": GOOGLE,
  "azure_*_key": AZURE, "azure_*_secret": AZURE, "azure_*_token": AZURE, "azure_client_secret": AZURE, "azure_openai_api_key": AZURE, "arm_client_secret": AZURE,
  "openai_api_key": ["api.openai.com", "*.openai.com"], "openai_admin_key": ["api.openai.com", "*.openai.com"],
  "anthropic_api_key": ["api.anthropic.com", "*.anthropic.com"], "anthropic_auth_token": ["api.anthropic.com", "*.anthropic.com"], "anthropic_admin_key": ["api.anthropic.com", "*.anthropic.com"],
  "hf_token": ["huggingface.co", "*.huggingface.co", "*.hf.co", "*.hf.space"], "hugging_face_hub_token": ["huggingface.co", "*.huggingface.co", "*.hf.co"], "huggingface_token": ["huggingface.co", "*.huggingface.co", "*.hf.co"], "huggingfacehub_api_token": ["huggingface.co", "*.huggingface.co", "*.hf.co"],
  "mistral_api_key": ["api.mistral.ai", "*.mistral.ai"], "groq_api_key": ["api.groq.com", "*.groq.com"], "cohere_api_key": ["api.cohere.ai", "api.cohere.com", "*.cohere.ai", "*.cohere.com"],
  "openrouter_api_key": ["openrouter.ai", "*.openrouter.ai"], "replicate_api_token": ["api.replicate.com", "*.replicate.com"], "deepseek_api_key": ["api.deepseek.com", "*.deepseek.com"],
  "xai_api_key": ["api.x.ai", "*.x.ai"], "together_api_key": ["api.together.xyz", "*.together.xyz", "*.together.ai"], "perplexity_api_key": ["api.perplexity.ai"], "voyage_api_key": ["api.voyageai.com"],
  "slack_token": ["slack.com", "*.slack.com"], "slack_bot_token": ["slack.com", "*.slack.com"], "slack_user_token": ["slack.com", "*.slack.com"], "slack_app_token": ["slack.com", "*.slack.com"], "slack_api_token": ["slack.com", "*.slack.com"],
  "stripe_secret_key": ["api.stripe.com", "*.stripe.com"], "stripe_api_key": ["api.stripe.com", "*.stripe.com"], "stripe_restricted_key": ["api.stripe.com", "*.stripe.com"], "stripe_webhook_secret": ["api.stripe.com", "*.stripe.com"],
  "cloudflare_api_token": ["api.cloudflare.com", "*.cloudflare.com"], "cloudflare_api_key": ["api.cloudflare.com", "*.cloudflare.com"], "cf_api_token": ["api.cloudflare.com", "*.cloudflare.com"], "cf_api_key": ["api.cloudflare.com", "*.cloudflare.com"],
  "digitalocean_token": ["api.digitalocean.com", "*.digitalocean.com"], "digitalocean_access_token": ["api.digitalocean.com", "*.digitalocean.com"], "do_api_token": ["api.digitalocean.com", "*.digitalocean.com"],
  "heroku_api_key": ["api.heroku.com", "*.heroku.com"], "vercel_token": ["api.vercel.com", "*.vercel.com"], "netlify_auth_token": ["api.netlify.com", "*.netlify.com"], "fly_api_token": ["api.fly.io", "*.fly.io", "*.machines.dev"],
  "sentry_auth_token": ["sentry.io", "*.sentry.io"], "dd_api_key": ["*.datadoghq.com", "*.datadoghq.eu", "*.ddog-gov.com"], "dd_app_key": ["*.datadoghq.com", "*.datadoghq.eu", "*.ddog-gov.com"], "datadog_api_key": ["*.datadoghq.com", "*.datadoghq.eu", "*.ddog-gov.com"],
  "circleci_token": ["circleci.com", "*.circleci.com"], "circle_token": ["circleci.com", "*.circleci.com"], "codecov_token": ["codecov.io", "*.codecov.io"],
  "ld_api_key": ["app.launchdarkly.com", "*.launchdarkly.com"], "launchdarkly_*": ["app.launchdarkly.com", "*.launchdarkly.com"], "flagsmith_*_key": ["*.flagsmith.com"],
  "twilio_auth_token": ["api.twilio.com", "*.twilio.com"], "sendgrid_api_key": ["api.sendgrid.com", "*.sendgrid.com"], "mailgun_api_key": ["api.mailgun.net", "api.eu.mailgun.net"],
  "linear_api_key": ["api.linear.app"], "notion_token": ["api.notion.com"], "notion_api_key": ["api.notion.com"], "supabase_access_token": ["api.supabase.com", "*.supabase.co", "*.supabase.com"], "supabase_service_role_key": ["*.supabase.co", "*.supabase.com"],
  "tfe_token": ["app.terraform.io"], "tf_token_*": ["app.terraform.io", "*.terraform.io"], "vault_token": ["*.hashicorp.cloud", "*.hashicorp.com"], "ngrok_authtoken": ["*.ngrok.com"], "doppler_token": ["api.doppler.com"],
};

/**
 * Subcommands that print a token or credentials: `aws configure export-credentials`, `aws sts
 * get-session-token`, `aws ecr get-login-password`, `gcloud auth print-access-token`, `gh auth
 * token`, `az account get-access-token`, `heroku auth:token`, `vault print token`, `vault token
 * lookup`, `npm token create`, `sops decrypt` (secret stores' reads are net.cloud-secret-exfiltration's).
 */
const CREDENTIAL_PRINTING_WORDS =
  "export-credentials|get-session-token|get-federation-token|assume-role|assume-role-with-web-identity|get-login-password|get-authorization-token|" +
  "print-access-token|print-identity-token|print-refresh-token|config-helper|token|auth:token|authorizations:create|get-access-token|" +
  "find-generic-password|find-internet-password|decrypt";

export const secretRules: readonly RuleSpec[] = [
  {
    id: "secrets.shell-history",
    effect: "deny",
    // reading only: wiping a history (`> ~/.bash_history`, `shred`) is fs.overwrite-home-file's and fs.delete-home-data's
    paths: {
      access: "no-read",
      patterns: [
        "~/.bash_history",
        "~/.zsh_history",
        "~/.zhistory",
        "~/.histfile",
        "~/.sh_history",
        "~/.history",
        "~/.local/share/fish/fish_history",
        "~/.config/fish/fish_history",
        "~/.python_history",
        "~/.node_repl_history",
        "~/.psql_history",
        "~/.mysql_history",
        "~/.sqlite_history",
        "~/.rediscli_history",
        "~/.irb_history",
        "~/.lesshst",
        "~/.local/share/zsh/history",
        "//root/.bash_history",
        "//root/.zsh_history",
      ],
    },
    why: "shell and REPL histories hold pasted passwords and tokens",
    instead: "run `history | tail` for recent commands, and leave history files alone",
  },
  {
    id: "secrets.system-passwords",
    effect: "deny",
    paths: { access: "zero-access", patterns: ["//etc/shadow", "//etc/shadow-", "//etc/gshadow", "//etc/gshadow-", "//etc/master.passwd", "//etc/security/opasswd", "//var/db/shadow/"] },
    why: "the system password database holds every account's password hash",
    instead: "use `getent passwd <user>` or `id <user>` for account details",
  },
  {
    id: "secrets.process-environ",
    effect: "deny",
    paths: { access: "zero-access", patterns: ["//proc/*/environ", "//proc/self/environ", "//proc/*/task/*/environ"] },
    why: "a process's environment holds its tokens and passwords",
    instead: "read the one variable you need by name in your own shell, or ask the user",
  },
  {
    id: "secrets.credential-stores",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: [
        "~/Library/Keychains/",
        "//Library/Keychains/",
        "~/.local/share/keyrings/",
        "~/.password-store/",
        "~/.config/google-chrome/",
        "~/.config/chromium/",
        "~/.config/BraveSoftware/",
        "~/.config/microsoft-edge/",
        "~/.config/vivaldi/",
        "~/.config/opera/",
        "~/.mozilla/",
        "~/snap/firefox/common/.mozilla/",
        "~/Library/Application Support/Google/Chrome/",
        "~/Library/Application Support/Chromium/",
        "~/Library/Application Support/BraveSoftware/",
        "~/Library/Application Support/Microsoft Edge/",
        "~/Library/Application Support/Firefox/",
        "~/Library/Cookies/",
        "~/Library/Safari/",
        "~/.thunderbird/",
        "~/.config/op/",
        "~/.config/Bitwarden CLI/",
      ],
      // browser caches are not credentials
      except: ["~/**/Cache", "~/**/Cache/**", "~/**/Code Cache/**", "~/**/GPUCache/**", "~/**/cache2/**", "~/**/CacheStorage/**", "~/**/ShaderCache/**"],
    },
    why: "keychains, password stores and browser profiles hold saved passwords, cookies and session tokens",
    instead: "ask the user for the one credential you need, or to sign in themselves",
  },
  {
    id: "secrets.git-credential-fill",
    effect: "deny",
    command: { program: ["git"], args: ["credential|credential-store|credential-cache|credential-osxkeychain|credential-manager|credential-libsecret", "fill|get"] },
    why: "it prints the stored git password or token",
    instead: "let git use its credential helper itself, or ask the user",
  },
  {
    id: "secrets.windows-hive-dump",
    effect: "deny",
    command: { program: ["reg", "reg.exe"], args: ["save|export", "hklmsam|hklmsecurity|hklmsystem|hklm/sam|hklm/security|hklm/system|hklm\\sam|hklm\\security|hklm\\system|hkey_local_machine\\sam|hkey_local_machine\\security|hkey_local_machine\\system"] },
    why: "it copies the Windows account database with its password hashes",
    instead: "there is no safe form of this; ask the user",
  },
  {
    id: "secrets.gpg-export-secret",
    effect: "deny",
    command: { program: ["gpg", "gpg2"], flags_any: ["--export-secret-keys", "--export-secret-key", "--export-secret-subkeys", "--export-secret-subkey"] },
    why: "it prints or writes the private keys of the GnuPG keyring",
    instead: "export the public key with `gpg --armor --export <id>`",
  },
  {
    id: "secrets.keychain-password",
    effect: "deny",
    command: { program: ["security"], args: ["find-generic-password|find-internet-password|find-key"], flags_any: ["-w", "-g"] },
    why: "it prints a password stored in the macOS keychain",
    instead: "ask the user for the credential, or let the tool read the keychain itself",
  },
  {
    id: "secrets.keychain-dump",
    effect: "deny",
    command: { program: ["security"], args: ["dump-keychain|export|dump-trust-settings"] },
    why: "it dumps the items of a macOS keychain",
    instead: "use `security find-certificate` for public certificates, and ask the user for anything else",
  },
  {
    id: "secrets.password-manager",
    effect: "deny",
    command: { program: ["pass", "gopass"], args: ["show|cat|*/*"], flags_none: ["-c", "--clip", "--help"] },
    why: "it prints a password from the password store",
    instead: "copy it to the clipboard with `pass -c`, or ask the user",
  },
  {
    id: "secrets.password-manager-cli",
    effect: "deny",
    command: { program: ["op", "bw", "lpass"], args: ["**", "read|get|show|export"], flags_none: ["--help", "-h"] },
    why: "it prints secrets from a password manager",
    instead: "inject them into the command that needs them (`op run -- cmd`), or ask the user",
  },
  {
    id: "secrets.print-secret-variable",
    effect: "deny",
    command: { program: ["printenv"], args: [SECRET_VARS] },
    why: "it prints a secret from the environment into the transcript",
    instead: "test that it is set with `test -n \"$NAME\"`, and let the program that needs it read it",
  },
  {
    id: "secrets.dotenv-print",
    effect: "deny",
    command: { program: ["dotenv", "dotenv-cli"], flags_any: ["-p"] },
    why: "it prints a value from an environment file",
    instead: "read `.env.example` for the variable names, or ask the user for the value you need",
  },
  {
    id: "secrets.cli-show-token",
    effect: "deny",
    command: { program: ["gh", "glab"], args: ["auth", "status"], flags_any: ["--show-token", "-t"] },
    why: "it prints the stored access token",
    instead: "run `gh auth status` without `--show-token`",
  },
  {
    id: "secrets.aws-configure-get",
    effect: "deny",
    command: {
      program: ["aws"],
      args: ["configure", "get", "aws_secret_access_key|aws_session_token|aws_access_key_id|*.aws_secret_access_key|*.aws_session_token|*.aws_access_key_id"],
    },
    why: "it prints a stored AWS secret",
    instead: "run `aws sts get-caller-identity` to check which credentials are in use",
  },
  {
    id: "secrets.kubectl-secret-output",
    effect: "deny",
    command: { program: ["kubectl", "oc", "k3s", "microk8s.kubectl"], args: ["get", "secret|secrets|secret/*|secrets/*"], option_values: { "-o": ["jsonpath*data*", "go-template*data*", "template*data*"] } },
    why: "it picks a value out of a Kubernetes secret's data",
    instead: "list secrets with `kubectl get secrets`, or `kubectl describe secret <name>` for the keys without the values",
  },
  {
    id: "secrets.kubectl-secret-output-long",
    effect: "deny",
    command: { program: ["kubectl", "oc", "k3s", "microk8s.kubectl"], args: ["get", "secret|secrets|secret/*|secrets/*"], option_values: { "--output": ["jsonpath*data*", "go-template*data*", "template*data*"] } },
    why: "it picks a value out of a Kubernetes secret's data",
    instead: "list secrets with `kubectl get secrets`, or `kubectl describe secret <name>` for the keys without the values",
  },
  {
    id: "secrets.kubectl-secret-decode",
    effect: "deny",
    pipe: { from: ["kubectl", "oc"], to: ["base64", "base64.exe"] },
    why: "it decodes a Kubernetes secret's value into the transcript",
    instead: "list secrets with `kubectl get secrets`, or `kubectl describe secret <name>` for the keys without the values",
  },
  {
    id: "secrets.kubeconfig-raw",
    effect: "deny",
    command: { program: ["kubectl", "oc"], args: ["config", "view"], flags_any: ["--raw", "--flatten"] },
    why: "it prints the cluster credentials of the kubeconfig",
    instead: "run `kubectl config view`, which redacts them",
  },
  {
    id: "net.env-exfiltration",
    effect: "deny",
    pipe: {
      from: ["env", "printenv", "set", "export", "declare", "typeset"],
      to: ["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "http", "https", "xh", "httpie", "lwp-request", "POST"],
    },
    why: "it sends the environment, with every token and password in it, to a network peer",
    instead: "send only the values the request needs, named one by one",
  },
  {
    id: "net.cloud-secret-exfiltration",
    effect: "deny",
    pipe: {
      from: ["aws", "gcloud", "az", "vault", "op", "doppler", "bw", "infisical", "heroku"],
      fromArgs: [
        "**",
        "get-secret-value|get-parameter|get-parameters|get-parameters-by-path|access|read|get|show|download|config:get|export",
      ],
      to: ["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "http", "https", "xh", "httpie", "lwp-request", "POST"],
    },
    why: "it sends a secret read from a secret store to a network peer",
    instead: "reference the secret where it is used (an environment variable set by the platform) instead of sending its value",
  },
  {
    id: "net.secret-variable-exfiltration",
    effect: "deny",
    send: {
      localHosts: LOCAL_HOSTS,
      env: SECRET_VARS.split("|"),
      envExcept: NOT_SECRET_VARS,
      keyParams: ["key", "api_key", "apikey", "api-key", "appid", "app_id", "app_key", "appkey", "access_key", "subscription-key", "developerkey"],
      // (`api` is left out: `API_KEY` in the query of an `api.` host is that API's key)
      generic: ["app", "apps", "secret", "secrets", "private", "access", "auth", "client", "user", "admin", "root", "prod", "production", "staging", "dev", "test", "service", "server", "web", "site", "session", "bearer", "refresh", "token", "password", "master", "default", "my", "local", "remote", "deploy", "ci", "bot", "webhook", "hook", "data", "database", "encryption", "signing", "jwt", "oauth", "personal", "github_pat"],
      // an OAuth token endpoint takes the client secret or refresh token as form data
      signIn: ["*/token", "*/token?*", "*/oauth/*", "*/oauth2/*", "*/oauth2", "*/access_token*"],
    },
    why: "it sends the value of a secret environment variable to a network peer as request data",
    instead: "pass a token to its own service as a header (`-H \"Authorization: Bearer $TOKEN\"`), and never send it to another host",
  },
  {
    id: "net.token-to-other-host",
    effect: "deny",
    // (vault runs on the user's own host: VAULT_TOKEN only goes to HCP's; a custom host is added with token_hosts)
    send: { localHosts: LOCAL_HOSTS, tokens: Object.fromEntries(Object.entries(TOKEN_HOSTS).filter(([name]) => name !== "vault_token")) },
    why: "it sends a well-known token to a host that is not its service's, which is how tokens leak (`$GITHUB_TOKEN` goes to GitHub only)",
    instead: "send the token only to its own service; if this host is one of its service's (an enterprise or private host), list it under `token_hosts` in lanes.yaml",
  },
  {
    id: "net.upload-file",
    effect: "ask",
    send: { localHosts: LOCAL_HOSTS, uploads: true },
    why: "it uploads a local file to a host the policy does not list, and the file may hold code or data that should not leave",
    instead: "tell the user what goes where; hosts the project uploads to are listed under `upload_hosts` in lanes.yaml",
  },
  {
    id: "net.http-delete",
    effect: "deny",
    send: { localHosts: LOCAL_HOSTS, methods: ["DELETE"] },
    why: "it sends a `DELETE` to a remote API, which removes the resource for everyone who uses it",
    instead: "show the user the request and let them run it, or try it against a local server first",
  },
  {
    id: "net.socket-shell",
    effect: "deny",
    send: { localHosts: [], shell: true },
    why: "it ties a shell on this machine to a network socket, so the peer runs commands here",
    instead: "there is no safe form of this; ask the user",
  },
  {
    id: "net.credential-token-exfiltration",
    effect: "deny",
    send: {
      localHosts: LOCAL_HOSTS,
      from: CREDENTIAL_PRINTERS,
      fromArgs: ["**", CREDENTIAL_PRINTING_WORDS],
    },
    why: "it sends an access token or credentials printed by a CLI to a network peer",
    instead: "use the token as a header for the service it belongs to (`-H \"Authorization: Bearer $(gcloud auth print-access-token)\"`)",
  },
  {
    id: "secrets.print-secret-value",
    effect: "deny",
    send: { localHosts: [], transcript: true, env: SECRET_VARS.split("|"), envExcept: NOT_SECRET_VARS },
    why: "it prints the value of a secret environment variable into the transcript",
    instead: "test that it is set with `test -n \"$NAME\"` or `echo \"${NAME:+set}\"`, and let the program that needs it read it",
  },
  {
    id: "secrets.print-credential-token",
    effect: "deny",
    // (`security find-generic-password -w` is secrets.keychain-password's; `npm token list` shows ids, not tokens)
    send: { localHosts: [], transcript: true, from: CREDENTIAL_PRINTERS.filter((p) => p !== "security" && p !== "npm"), fromArgs: ["**", CREDENTIAL_PRINTING_WORDS] },
    why: "it prints an access token or credentials into the transcript",
    instead: "use it where it is needed without printing it (`-H \"Authorization: Bearer $(gcloud auth print-access-token)\"`, `GH_TOKEN=$(gh auth token) tool`), or check the login with `gh auth status`",
  },
  {
    id: "secrets.print-environment-secrets",
    effect: "deny",
    send: { localHosts: [], transcript: true, environment: true },
    why: "it picks the secrets out of the environment and prints them into the transcript",
    instead: "list the names only (`printenv | cut -d= -f1 | grep -i token`), or test one with `test -n \"$NAME\"`",
  },
  {
    id: "net.whole-environment-exfiltration",
    effect: "deny",
    send: { localHosts: LOCAL_HOSTS, environment: true },
    why: "it sends the whole environment, with every token and password in it, to a network peer (interpreter code posting `os.environ` or `process.env`, `curl -d \"$(env)\"`)",
    instead: "send only the values the request needs, named one by one",
  },
  {
    id: "net.archive-to-socket",
    effect: "deny",
    pipe: { from: ["tar", "bsdtar", "zip", "7z", "7za", "cpio", "pax", "git", "dd"], to: ["nc", "ncat", "netcat", "socat", "telnet", "nc.traditional", "nc.openbsd"] },
    why: "it streams an archive of files (the repository, keys) to a raw network socket",
    instead: "copy the specific build output with `scp` or `rsync` to a host the user named",
  },
  {
    id: "net.reverse-shell",
    effect: "deny",
    command: { program: ["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"], flags_any: ["-e", "-c", "--exec", "--sh-exec", "--lua-exec"] },
    why: "it hands a shell on this machine to a network peer",
    instead: "there is no safe form of this; ask the user",
  },
  {
    id: "net.shell-to-socket",
    effect: "deny",
    pipe: {
      from: ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "csh", "tcsh", "pwsh"],
      // a shell that runs a `-c` string or a script read now takes no commands from the socket:
      // what it sends is judged as its commands are (`sh -c 'cat .env' | nc` is a secret read)
      fromCodeExcept: ["literal", "disk"],
      to: ["nc", "ncat", "netcat", "socat", "telnet", "nc.traditional", "nc.openbsd"],
    },
    why: "it pipes a shell on this machine to a network socket (a named pipe or the socket feeds its input back: a reverse shell)",
    instead: "there is no safe form of this; ask the user",
  },
  {
    id: "net.socat-exec",
    effect: "deny",
    command: { program: ["socat"], args: ["**", "exec:*|system:*|*,exec:*|*:exec:*"] },
    why: "it connects a program or shell on this machine to a network peer",
    instead: "there is no safe form of this; ask the user",
  },
];
