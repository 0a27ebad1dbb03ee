/**
 * Package registries: publishing a release, and withdrawing or re-pointing one. A publish cannot
 * be taken back (npm and crates.io keep the version number burnt forever) and puts the working
 * tree, secrets included, in front of everyone. Dry runs, packing and local installs are quiet.
 */
import type { RuleSpec } from "./types.ts";

/** Flags that make a publish a rehearsal, across the registry CLIs. */
const DRY = ["--dry-run", "--dryrun", "-n", "--help", "-h"];

const PUBLISH_WHY = "it publishes a package version to a public registry, which cannot be taken back";
const PUBLISH_INSTEAD = "run the dry run (`npm publish --dry-run`, `cargo publish --dry-run`) or pack it locally, and ask the user to publish";

export const publishRules: readonly RuleSpec[] = [
  {
    id: "pkg.publish",
    effect: "deny",
    command: {
      program: ["npm", "pnpm", "bun", "cnpm", "yarn", "cargo", "poetry", "flit", "hatch", "uv", "pdm", "vsce", "ovsx", "deno", "jsr", "lerna", "changeset", "dart", "flutter", "rye", "maturin"],
      args: ["publish"],
      flags_none: DRY,
    },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.publish-nested",
    effect: "deny",
    // `yarn npm publish` (berry), `dart pub publish`, `flutter pub publish`
    command: { program: ["yarn", "dart", "flutter"], args: ["npm|pub", "publish"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.publish-workspace",
    effect: "deny",
    // `yarn workspace @acme/core npm publish`, `yarn workspaces foreach npm publish`
    command: { program: ["yarn"], args: ["workspace|workspaces", "**", "publish"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.publish-script",
    effect: "deny",
    // `pnpm changeset publish`, `yarn lerna publish`: a package manager running a release tool
    command: { program: ["pnpm", "yarn", "bun", "npm"], args: ["changeset|changesets|lerna|exec|run", "**", "publish"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.publish-other",
    effect: "deny",
    command: { program: ["pub", "nimble", "opam", "cabal", "stack", "anaconda", "lein", "dub"], args: ["publish|upload|deploy"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.rebar-hex",
    effect: "deny",
    command: { program: ["rebar3"], args: ["hex", "publish|retire|cut"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: PUBLISH_INSTEAD,
  },
  {
    id: "pkg.setup-py-upload",
    effect: "deny",
    command: { program: ["python", "python3", "py"], args: ["setup.py", "**", "upload|register"] },
    why: PUBLISH_WHY,
    instead: "build with `python -m build` and check with `twine check dist/*`, and ask the user to upload",
  },
  {
    id: "pkg.sbt-publish",
    effect: "deny",
    command: { program: ["sbt"], args: ["**", "publish|publishSigned|+publish|+publishSigned|sonatypeRelease|sonatypeBundleRelease|release|ci-release"] },
    why: PUBLISH_WHY,
    instead: "run `sbt publishLocal`, and ask the user to publish",
  },
  {
    id: "pkg.rake-release",
    effect: "deny",
    command: { program: ["rake"], args: ["**", "release|release:rubygem_push"] },
    why: PUBLISH_WHY,
    instead: "run `rake build`, and ask the user to release",
  },
  {
    id: "pkg.upload",
    effect: "deny",
    command: { program: ["twine", "gem", "nuget", "helm", "maturin"], args: ["upload|push|cm-push"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: "check the artifacts (`twine check dist/*`, `gem build`, `helm package`), and ask the user to upload them",
  },
  {
    id: "pkg.upload-module",
    effect: "deny",
    // `python -m twine upload dist/*`
    command: { program: ["python", "python3", "py", "pypy3"], flags_any: ["-m"], args: ["twine|flit|hatch|poetry|uv|pdm", "upload|publish"], flags_none: DRY },
    why: PUBLISH_WHY,
    instead: "check the artifacts with `twine check dist/*`, and ask the user to upload them",
  },
  {
    id: "pkg.dotnet-nuget",
    effect: "deny",
    command: { program: ["dotnet"], args: ["nuget", "push|delete"] },
    why: "it publishes or deletes a package on a NuGet feed",
    instead: "build the package with `dotnet pack`, and ask the user to push it",
  },
  {
    id: "pkg.nuget-delete",
    effect: "deny",
    command: { program: ["nuget"], args: ["delete"] },
    why: "it deletes or unlists a package on a NuGet feed",
    instead: "ask the user to unlist packages",
  },
  {
    id: "pkg.cocoapods-trunk",
    effect: "deny",
    command: { program: ["pod"], args: ["trunk", "push|delete|deprecate"] },
    why: "it publishes, deletes or deprecates a pod on the CocoaPods trunk",
    instead: "run `pod lib lint` or `pod spec lint`, and ask the user to publish",
  },
  {
    id: "pkg.hex",
    effect: "deny",
    command: { program: ["mix"], args: ["hex.publish|hex.retire|hex.owner"], flags_none: DRY },
    why: "it publishes, retires or re-owns a package on Hex",
    instead: "run `mix hex.build`, and ask the user to publish",
  },
  {
    id: "pkg.maven-deploy",
    effect: "deny",
    command: { program: ["mvn", "mvnw", "mvnd"], args: ["**", "deploy|deploy:deploy|deploy:deploy-file|release:perform|nexus-staging:release|nexus-staging:deploy"] },
    why: "it deploys artifacts to a remote Maven repository",
    instead: "run `mvn install` for the local repository, and ask the user to deploy",
  },
  {
    id: "pkg.gradle-publish",
    effect: "deny",
    command: {
      program: ["gradle", "gradlew", "gradlew.bat"],
      args: [
        "**",
        "publish|publishToMavenCentral|publishAndReleaseToMavenCentral|publishToSonatype|publishPlugins|publish*PublicationTo*Repository|publishAllPublicationsTo*Repository|closeAndReleaseSonatypeStagingRepository|closeAndReleaseStagingRepositories|releaseSonatypeStagingRepository|uploadArchives|bintrayUpload|artifactoryPublish|:*:publish",
      ],
    },
    why: "it publishes artifacts to a remote repository",
    instead: "run `./gradlew publishToMavenLocal` for the local repository, and ask the user to publish",
  },
  {
    id: "pkg.release-tool",
    effect: "deny",
    command: { program: ["semantic-release", "release-it", "np"], flags_none: [...DRY, "--no-npm.publish", "--only-version", "--release-version", "--changelog"] },
    why: "a release tool tags, pushes and publishes the package",
    instead: "run it with `--dry-run`, and ask the user to release",
  },
  {
    id: "pkg.goreleaser",
    effect: "deny",
    command: { program: ["goreleaser"], args: ["release"], flags_none: ["--snapshot", "--skip-publish", "--help", "-h"] },
    why: "a release tool tags, pushes and publishes the package",
    instead: "run `goreleaser release --snapshot`, and ask the user to release",
  },
  {
    id: "pkg.registry-retract",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn", "cnpm", "bun"], args: ["deprecate|undeprecate"], flags_none: ["--help", "-h", "--dry-run"] },
    why: "it marks published versions deprecated for everyone who installs them",
    instead: "ask the user to deprecate versions",
  },
  {
    id: "pkg.dist-tag",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn", "cnpm"], args: ["dist-tag|dist-tags", "rm|remove|del"], flags_none: ["--help", "-h"] },
    why: "it removes a tag that decides what everyone installs",
    instead: "list tags with `npm dist-tag ls`, and ask the user to change them",
  },
  {
    id: "pkg.dist-tag-latest",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn", "cnpm"], args: ["dist-tag|dist-tags", "add|set", "**", "latest"], flags_none: ["--help", "-h"] },
    why: "it moves `latest`, the version everyone installs by default",
    instead: "list tags with `npm dist-tag ls`, and ask the user to move `latest`",
  },
  {
    id: "pkg.owner-change",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn", "cnpm"], args: ["owner|owners|author", "add|rm|remove"], flags_none: ["--help", "-h"] },
    why: "it changes who may publish the package",
    instead: "list owners with `npm owner ls`, and ask the user to change them",
  },
  {
    id: "pkg.owner-change-flag",
    effect: "deny",
    command: { program: ["cargo", "gem"], args: ["owner"], flags_any: ["--add", "-a", "--remove", "-r"] },
    why: "it changes who may publish the package",
    instead: "list owners with `cargo owner --list` or `gem owner <gem>`, and ask the user to change them",
  },
  {
    id: "pkg.vsce-unpublish",
    effect: "deny",
    command: { program: ["vsce", "ovsx"], args: ["unpublish|delete"] },
    why: "it removes a published extension from the marketplace",
    instead: "ask the user to unpublish",
  },
];
