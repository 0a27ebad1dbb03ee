/**
 * What library calls of Python and JavaScript do beyond files and processes (those are in
 * `apis.ts`), as data read by `code/library.ts`: cloud, Kubernetes and database SDK calls judged
 * as the CLI command that does the same (`boto3.client("s3").delete_bucket(...)` is
 * `aws s3api delete-bucket`), SQL run through a driver (judged as that SQL sent to the database's
 * client), network requests (their peers and what they send), and sockets (reverse shells).
 *
 * Call names are the canonical names of `code/interpret.ts`: a module path, `()` for each call
 * in the chain that made the value (`boto3.client().delete_bucket`). In patterns, `*` is any
 * run of characters without `.`, `**` anything (any number of steps), `{a,b}` one of the
 * alternatives. In templates, `{$N.K}` is argument `K` (a position or a keyword name) of call
 * `N` of the chain, counted from 0, or of the last call in it named `N` (`{$Bucket.0}`); `{$.K}` of
 * the call itself; `{$N.K|$M.J}`: the first that is given.
 */

/** A library call judged as a command. */
export interface CommandRow {
  readonly call: string;
  /** The command's words; see the module comment for `{...}` references. */
  readonly argv: readonly string[];
  /** Keyword arguments of the call given as `--kebab-case value` options after the words. */
  readonly options?: boolean;
  /** Left out when a step of the chain has one of these names (`knex("t").where(...).del()`). */
  readonly unless?: readonly string[];
}

/** SDK families whose every operation maps to a CLI verb by name. */
export type SdkFamily =
  /** AWS: `aws <service> <operation-in-kebab-case>`; the service from a call argument, a class, a module or a package. */
  | { readonly kind: "aws"; readonly call: string; readonly service: string }
  /** AWS SDK v3: `client.send(new DeleteBucketCommand(...))`, the operation from the command class. */
  | { readonly kind: "aws-command"; readonly call: string }
  /** boto3 resources: `Bucket(x).delete()`, `instances.all().terminate()`: `aws <service> <action>-<kind>`. */
  | { readonly kind: "aws-resource"; readonly call: string }
  /** Kubernetes clients: `delete_namespaced_<kind>(name, ns)`, `deleteNamespace({ name })`: `kubectl delete <kind> <name>`. */
  | { readonly kind: "kubernetes"; readonly call: string }
  /** Azure management clients: `client.<group>.begin_delete(...)`: `az <service> <group> delete`. */
  | { readonly kind: "azure"; readonly call: string }
  /** Google Cloud clients: `<Things>Client().delete(...)`, `delete_<thing>(...)`: `gcloud <product> <things> delete`. */
  | { readonly kind: "gcloud"; readonly call: string };

/** SQL sent through a driver (judged as the same SQL given to the database's client). */
export interface SqlRow {
  readonly call: string;
  /** The client program the SQL is judged as sent with (`psql`, `mysql`, `sqlite3`). */
  readonly client: string;
  /** The statement: a template (`{$.0}`: the first argument). */
  readonly sql: string;
  /** For file databases, the database: a template. */
  readonly database?: string;
  readonly unless?: readonly string[];
}

/** A network request: where it goes and what it sends. */
export interface NetworkRow {
  readonly call: string;
  /** The peer: a URL or host template (also the arguments of the chain's calls, when it names none). */
  readonly peer?: string;
  /** Arguments that are metadata, not data sent (`headers`, `auth`): positions or keyword names. */
  readonly skip?: readonly string[];
}

/** Per-language library semantics. */
export interface Libraries {
  readonly commands: readonly CommandRow[];
  readonly sdks: readonly SdkFamily[];
  readonly sql: readonly SqlRow[];
  readonly network: readonly NetworkRow[];
  /** Values that are network sockets (their peer: a template, or what `connect` was given). */
  readonly sockets: readonly { readonly call: string; readonly peer?: string }[];
  /** Calls that tie a file descriptor to the process's own standard streams (`os.dup2(fd, 0)`). */
  readonly dup: readonly string[];
  /** Methods that pipe one stream into another (`socket.pipe(child.stdin)`). */
  readonly pipes: readonly string[];
}

/** Keys of request options and headers that never carry the request's data. */
export const METADATA_KEYS: readonly string[] = [
  "headers", "auth", "cookies", "cookie", "cert", "verify", "timeout", "proxies", "proxy", "agent", "allow_redirects",
  "method", "params_serializer", "credentials", "mode", "cache", "redirect", "signal", "keepalive", "integrity",
  "referrer", "referrerPolicy", "responseType", "maxRedirects", "httpsAgent", "httpAgent", "withCredentials", "stream",
];

/** AWS SDK service names that differ from the CLI's (`s3`'s API commands are `aws s3api`). */
export const AWS_SERVICES: Readonly<Record<string, string>> = {
  s3: "s3api",
  cloudwatchlogs: "logs",
  "cloudwatch-logs": "logs",
  "secrets-manager": "secretsmanager",
  "elastic-load-balancing-v2": "elbv2",
  elasticloadbalancingv2: "elbv2",
  "elastic-load-balancing": "elb",
  elasticloadbalancing: "elb",
  "cognito-identity-provider": "cognito-idp",
  cognitoidentityserviceprovider: "cognito-idp",
  "dynamodb-streams": "dynamodbstreams",
  "api-gateway": "apigateway",
  "eventbridge": "events",
  "cloudwatch-events": "events",
  "application-auto-scaling": "application-autoscaling",
  "auto-scaling": "autoscaling",
  "route-53": "route53",
  "elasticache": "elasticache",
  "key-management-service": "kms",
  "lib-dynamodb": "dynamodb",
};

/** Azure management modules whose CLI group differs (`azure.mgmt.resource` → `az group`). */
export const AZURE_GROUPS: Readonly<Record<string, string>> = {
  resource_groups: "group",
  virtual_machines: "vm",
  storage_accounts: "storage account",
  managed_clusters: "aks",
  web_apps: "webapp",
  servers: "server",
  databases: "db",
  vaults: "keyvault",
  virtual_networks: "network vnet",
};

const PY_HTTP_VERBS = "{get,post,put,patch,delete,request,head,options,stream,send}";

// prettier-ignore
export const LIBRARIES: Readonly<Record<"python" | "node", Libraries>> = {
  python: {
    commands: [
      // S3 resources: emptying or deleting a bucket
      { call: "boto3**.resource().Bucket().{objects,object_versions}**.delete", argv: ["aws", "s3", "rm", "s3://{$Bucket.0|$Bucket.name}", "--recursive"] },
      { call: "boto3**.resource().Bucket().delete", argv: ["aws", "s3", "rb", "s3://{$Bucket.0|$Bucket.name}"] },
      { call: "boto3**.resource().Object().delete", argv: ["aws", "s3", "rm", "s3://{$Object.0|$Object.bucket_name}/{$Object.1|$Object.key}"] },
      // Google Cloud Storage
      { call: "google.cloud.storage.Client().{bucket,get_bucket,lookup_bucket}().delete", argv: ["gcloud", "storage", "buckets", "delete", "gs://{$bucket.0|$get_bucket.0|$lookup_bucket.0|$bucket.bucket_name|$get_bucket.bucket_or_name}"] },
      { call: "google.cloud.storage.Client().{bucket,get_bucket,lookup_bucket}().blob().delete", argv: ["gcloud", "storage", "rm", "gs://{$bucket.0|$get_bucket.0|$lookup_bucket.0}/{$blob.0|$blob.blob_name}"] },
      { call: "google.cloud.storage.Client().{bucket,get_bucket,lookup_bucket}().delete_blobs", argv: ["gcloud", "storage", "rm", "gs://{$bucket.0|$get_bucket.0|$lookup_bucket.0}/*"] },
      { call: "google.cloud.bigquery.Client().delete_dataset", argv: ["bq", "rm", "-r", "-f", "-d", "{$.0|$.dataset}"] },
      { call: "google.cloud.bigquery.Client().delete_table", argv: ["bq", "rm", "-f", "-t", "{$.0|$.table}"] },
      // Azure
      { call: "azure.mgmt.resource.ResourceManagementClient().resource_groups.{begin_delete,delete}", argv: ["az", "group", "delete", "--name", "{$.0|$.resource_group_name}"] },
      { call: "azure.storage.blob.BlobServiceClient**.delete_container", argv: ["az", "storage", "container", "delete", "--name", "{$.0|$.container}"] },
      { call: "azure.storage.blob.ContainerClient**.delete_container", argv: ["az", "storage", "container", "delete", "--name", "{$ContainerClient.1|$ContainerClient.container_name|$.0}"] },
      // database servers' own destructive calls
      { call: "redis.{Redis,StrictRedis,from_url}()**.{flushall,flushdb}", argv: ["redis-cli", "FLUSHALL"] },
      { call: "pymongo.MongoClient()**.drop_database", argv: ["mongosh", "--eval", "db.dropDatabase()"] },
    ],
    sdks: [
      { kind: "aws", call: "boto3**.client().*", service: "{$client.0|$client.service_name}" },
      { kind: "aws-resource", call: "boto3**.resource().**" },
      { kind: "kubernetes", call: "kubernetes.client.*Api().*" },
      { kind: "azure", call: "azure.mgmt.*.*Client().*.{begin_delete,delete,begin_delete_by_id,delete_by_id}" },
      { kind: "gcloud", call: "google.cloud.**Client().{delete,delete_*}" },
    ],
    sql: [
      { call: "sqlite3.connect()**.{execute,executescript,executemany}", client: "sqlite3", sql: "{$.0|$.sql}", database: "{$connect.0|$connect.database}" },
      { call: "duckdb.connect()**.{execute,sql,query}", client: "duckdb", sql: "{$.0|$.query}", database: "{$connect.0|$connect.database}" },
      { call: "{psycopg2,psycopg,psycopg2.pool.*,psycopg_pool.*}.*()**.{execute,executemany}", client: "psql", sql: "{$.0|$.query}" },
      { call: "asyncpg.{connect,create_pool}()**.{execute,executemany,fetch,fetchrow,fetchval}", client: "psql", sql: "{$.0|$.query}" },
      { call: "{mysql.connector,pymysql,MySQLdb,mariadb}.{connect,Connect}()**.{execute,executemany}", client: "mysql", sql: "{$.0|$.query}" },
      { call: "sqlalchemy.create_engine()**.{execute,exec_driver_sql}", client: "psql", sql: "{$.0|$.statement}" },
      { call: "{snowflake.connector,pyodbc,cx_Oracle,oracledb,pymssql,clickhouse_driver.Client}**.{execute,executemany}", client: "psql", sql: "{$.0|$.query|$.operation}" },
    ],
    network: [
      { call: `{requests,httpx}.${PY_HTTP_VERBS}`, peer: "{$.url|$.0}", skip: ["headers", "auth", "cookies"] },
      { call: `{requests,httpx}.{Session,session,Client,AsyncClient}()**.${PY_HTTP_VERBS}`, peer: "{$.url|$.0}", skip: ["headers", "auth", "cookies"] },
      { call: "urllib.request.urlopen", peer: "{$.url|$.0}" },
      { call: "urllib.request.Request", peer: "{$.url|$.0}", skip: ["headers"] },
      { call: "urllib3.PoolManager()**.{request,urlopen}", peer: "{$.1|$.url}", skip: ["headers", "0"] },
      { call: "http.client.{HTTPConnection,HTTPSConnection}()**.{request,send}", peer: "{$0.0|$0.host}", skip: ["headers", "0"] },
      { call: "aiohttp.ClientSession()**.{get,post,put,patch,delete,request}", peer: "{$.url|$.0}", skip: ["headers", "auth", "cookies"] },
      { call: "{socket.socket,socket.create_connection}()**.{send,sendall,sendto,sendfile,makefile}", skip: [] },
    ],
    sockets: [
      { call: "socket.socket()" },
      { call: "socket.create_connection()", peer: "{$0.0|$0.address}" },
    ],
    dup: ["os.dup2"],
    pipes: [],
  },
  node: {
    commands: [
      { call: "{ioredis,redis.createClient,redis}()**.{flushall,flushdb,flushAll,flushDb}", argv: ["redis-cli", "FLUSHALL"] },
      { call: "mongodb.MongoClient()**.db().dropDatabase", argv: ["mongosh", "--eval", "db.dropDatabase()"] },
      { call: "@google-cloud/storage.Storage().bucket().delete", argv: ["gcloud", "storage", "buckets", "delete", "gs://{$bucket.0}"] },
      { call: "@google-cloud/storage.Storage().bucket().deleteFiles", argv: ["gcloud", "storage", "rm", "--recursive", "gs://{$bucket.0}/**"] },
      { call: "@azure/storage-blob.BlobServiceClient**.deleteContainer", argv: ["az", "storage", "container", "delete", "--name", "{$.0}"] },
    ],
    sdks: [
      { kind: "aws", call: "aws-sdk.*().*", service: "class" },
      { kind: "aws", call: "aws-sdk/clients/*().*", service: "module" },
      { kind: "aws", call: "aws-sdk.DynamoDB.DocumentClient().*", service: "dynamodb" },
      { kind: "aws-command", call: "@aws-sdk/client-*.*Client().send" },
      { kind: "aws-command", call: "@aws-sdk/lib-dynamodb.*Client**.send" },
      { kind: "aws", call: "@aws-sdk/client-*.*().*", service: "package" },
      { kind: "kubernetes", call: "@kubernetes/client-node.*Api().*" },
    ],
    sql: [
      { call: "pg.{Client,Pool}()**.query", client: "psql", sql: "{$.0|$.text}" },
      { call: "postgres()", client: "psql", sql: "{$.0}" },
      { call: "{mysql,mysql2}.{createConnection,createPool}()**.{query,execute}", client: "mysql", sql: "{$.0|$.sql}" },
      { call: "better-sqlite3()**.{exec,prepare}", client: "sqlite3", sql: "{$.0}", database: "{$0.0}" },
      { call: "sqlite3.Database()**.{run,exec,all,each,get}", client: "sqlite3", sql: "{$.0}", database: "{$0.0}" },
      { call: "knex()**.raw", client: "psql", sql: "{$.0}" },
      { call: "knex()()**.{del,delete}", client: "psql", sql: "DELETE FROM {$1.0}", unless: ["where", "whereIn", "whereNot", "whereRaw", "whereNull", "whereNotNull", "andWhere", "orWhere", "whereBetween", "whereExists", "limit"] },
      { call: "knex()()**.truncate", client: "psql", sql: "TRUNCATE {$1.0}" },
      { call: "knex()**.schema.{dropTable,dropTableIfExists}", client: "psql", sql: "DROP TABLE {$.0}" },
      { call: "@prisma/client.PrismaClient()**.{$executeRawUnsafe,$executeRaw,$queryRawUnsafe,$queryRaw}", client: "psql", sql: "{$.0}" },
      { call: "{sequelize,sequelize.Sequelize}()**.query", client: "psql", sql: "{$.0}" },
      { call: "@neondatabase/serverless.neon()", client: "psql", sql: "{$.0}" },
    ],
    network: [
      { call: "{fetch,node-fetch,undici.fetch,undici.request,cross-fetch}", peer: "{$.0}", skip: ["headers"] },
      { call: "axios", peer: "{$.0}", skip: ["headers", "auth"] },
      { call: "axios.{get,delete,head,options}", peer: "{$.0}", skip: ["1"] },
      { call: "axios.{post,put,patch,request}", peer: "{$.0}", skip: ["2", "headers", "auth"] },
      { call: "axios.create()**.{post,put,patch}", peer: "{$.0}", skip: ["2"] },
      { call: "got**.{post,put,patch,get}", peer: "{$.0}", skip: ["headers"] },
      { call: "got", peer: "{$.0}", skip: ["headers"] },
      { call: "{http,https}.{request,get}", peer: "{$.0}", skip: ["headers"] },
      { call: "{http,https}.{request,get}()**.{write,end}", peer: "{$0.0}" },
      { call: "{net,tls}.{connect,createConnection}()**.{write,end}" },
      { call: "{net.Socket,tls.TLSSocket}()**.{write,end}" },
      { call: "superagent.{post,put,patch}()**.send", peer: "{$0.0}" },
    ],
    sockets: [
      { call: "{net,tls}.{connect,createConnection}()", peer: "{$0.1|$0.host}" },
      { call: "{net.Socket,tls.TLSSocket}()" },
    ],
    dup: [],
    pipes: ["pipe"],
  },
};

/** Programs that are shells or interactive interpreters (what a reverse shell hands over). */
export const SHELL_PROGRAMS: readonly string[] = [
  "sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "csh", "tcsh", "busybox", "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh",
  "python", "python3", "perl", "ruby", "node", "php", "lua",
];
