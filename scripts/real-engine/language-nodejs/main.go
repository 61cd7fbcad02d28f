// Command pulumi-language-nodejs runs a Pulumi Node.js (TypeScript or JavaScript) program for the Pulumi CLI.
//
// The upstream language host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
// is not served by the Go module proxy this project builds from, so the real-engine toolchain builds
// this one instead. It runs a program as the upstream host does: with the `@pulumi/pulumi` npm package's
// own runner, `node [nodeargs] <program>/node_modules/@pulumi/pulumi/cmd/run <flags> <program> <args>`,
// the flags that runner reads (--monitor, --engine, --organization, --project, --root-directory, --stack,
// --pwd, --dry-run, --parallel, --tracing), config as PULUMI_CONFIG and its secret keys as
// PULUMI_CONFIG_SECRET_KEYS, PULUMI_NODEJS_TYPESCRIPT and PULUMI_NODEJS_TSCONFIG_PATH from the runtime
// options, and the runner's exit code 32 ("error already shown") as a bail. Dependencies are installed
// with the SDK's own nodejs/npm package (npm, yarn, pnpm or bun, as upstream picks it), which also lists
// them for `pulumi about`; SDKs are generated with pkg/v3's Node.js code generator and linked into
// package.json as upstream links them.
// Everything else the engine drives (deployment, state, providers, the Node.js SDK) is the upstream code.
// Plugin discovery is left to the engine: it finds pulumi-resource-kubernetes on PATH and the project's
// `packages` (such as this repository's component provider) where Pulumi.yaml names them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Set by the toolchain script to the Pulumi SDK version this host is built from.
var version = "0.0.0"

// nodeJSProcessExitedAfterLoggingUserActionableMessage is the runner's exit code for "error already shown".
const nodeJSProcessExitedAfterLoggingUserActionableMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

// options are the runtime options of Pulumi.yaml (`runtime: {name: nodejs, options: {...}}`).
type options struct {
	typescript     bool
	tsconfigPath   string
	nodeargs       []string
	packageManager npm.PackageManagerType
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	opts := options{typescript: true, packageManager: npm.AutoPackageManager}
	raw := info.GetOptions().AsMap()
	if v, ok := raw["typescript"]; ok {
		b, ok := v.(bool)
		if !ok {
			return opts, fmt.Errorf("typescript option must be a boolean, not %v", v)
		}
		opts.typescript = b
	}
	if v, ok := raw["tsconfig"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, fmt.Errorf("tsconfig option must be a string, not %v", v)
		}
		opts.tsconfigPath = s
	}
	if v, ok := raw["nodeargs"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, fmt.Errorf("nodeargs option must be a string, not %v", v)
		}
		opts.nodeargs = strings.Fields(s)
	}
	if v, ok := raw["packagemanager"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, fmt.Errorf("packagemanager option must be a string, not %v", v)
		}
		opts.packageManager = npm.PackageManagerType(s)
	}
	return opts, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	// The engine loads each provider when the program first registers one of its resources: the
	// Kubernetes provider from PATH, a project package from the path Pulumi.yaml gives it.
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return err
	}
	dir := req.GetInfo().GetProgramDirectory()
	fmt.Fprintln(stdout, "Installing dependencies...")
	fmt.Fprintln(stdout)
	name, err := npm.Install(server.Context(), opts.packageManager, dir, false /*production*/, stdout, stderr)
	if err != nil {
		return fmt.Errorf("%s install failed: %w", name, err)
	}
	fmt.Fprintln(stdout, "Finished installing dependencies")
	fmt.Fprintln(stdout)
	return closer.Close()
}

// About reports the Node.js that runs programs (`pulumi about`).
func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: %w", err)
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
}

// GetProgramDependencies lists the program's packages from its lock file, as its package manager has them.
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	dir := req.GetInfo().GetProgramDirectory()
	manager, err := npm.ResolvePackageManager(opts.packageManager, dir)
	if err != nil {
		return nil, err
	}
	packages, err := manager.ListPackages(ctx, dir, req.GetTransitiveDependencies())
	if err != nil {
		return nil, err
	}
	result := make([]*pulumirpc.DependencyInfo, 0, len(packages))
	for _, p := range packages {
		result = append(result, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: result}, nil
}

// runner finds the `@pulumi/pulumi` package's cmd/run as Node.js resolves it from the program directory.
func runner(programDir string) (string, error) {
	for dir := programDir; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, "node_modules", "@pulumi", "pulumi", "cmd", "run")
		if _, err := os.Stat(filepath.Join(candidate, "index.js")); err == nil {
			return candidate, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	return "", fmt.Errorf("it looks like the Pulumi SDK has not been installed in %s: "+
		"run `npm install` (or `pulumi install`) there; no node_modules/@pulumi/pulumi/cmd/run was found",
		programDir)
}

func (h *host) arguments(req *pulumirpc.RunRequest, runPath string, nodeargs []string) []string {
	args := append(append([]string{}, nodeargs...), runPath)
	add := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.engineAddress)
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("root-directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetPwd())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 1 {
		add("parallel", strconv.Itoa(int(req.GetParallel())))
	}
	add("tracing", h.tracing)
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	return append(args, req.GetArgs()...)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH (Node.js runs the program): %w", err)
	}
	runPath, err := runner(req.GetInfo().GetProgramDirectory())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, node, h.arguments(req, runPath, opts.nodeargs)...)
	cmd.Env = append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON),
	)
	if opts.typescript {
		cmd.Env = append(cmd.Env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfigPath != "" {
		cmd.Env = append(cmd.Env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigPath)
	}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == nodeJSProcessExitedAfterLoggingUserActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// GeneratePackage writes a Node.js SDK of a schema (`pulumi package gen-sdk --language nodejs`, and
// `pulumi package add` / `pulumi install` for a project's packages) with pkg/v3's code generator.
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, err := nodejs.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(),
		req.GetLocalDependencies(), req.GetLocal(), loader)
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// Link adds generated SDKs to the program's package.json as `file:` dependencies (the package manager's
// `pkg set`, with their install scripts allowed), as upstream does; InstallDependencies installs them.
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	dir := req.GetInfo().GetProgramDirectory()
	manager, err := npm.ResolvePackageManager(opts.packageManager, dir)
	if err != nil {
		return nil, err
	}
	instructions := []string{}
	for _, dep := range req.GetPackages() {
		manifest, err := os.ReadFile(filepath.Join(req.GetInfo().GetRootDirectory(), dep.GetPath(), "package.json"))
		if err != nil {
			return nil, fmt.Errorf("reading the generated SDK's package.json: %w", err)
		}
		var meta struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(manifest, &meta); err != nil {
			return nil, err
		}
		if err := manager.Link(ctx, dir, meta.Name, dep.GetPath()); err != nil {
			return nil, err
		}
		alias := dep.GetPackage().GetName()
		if p := dep.GetPackage().GetParameterization(); p != nil {
			alias = p.GetName()
		}
		alias = strings.ReplaceAll(alias, "-", "_")
		instructions = append(instructions,
			fmt.Sprintf("You can then import the SDK in your TypeScript code with:\n\n  import * as %s from \"%s\";\n",
				alias, meta.Name))
	}
	return &pulumirpc.LinkResponse{ImportInstructions: strings.Join(instructions, "\n")}, nil
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	// Accepted for compatibility with the upstream host's command line; options come from Pulumi.yaml.
	flag.Bool("typescript", true, "Use ts-node at runtime to support TypeScript source natively")
	flag.String("root", "", "Project root path")
	flag.String("tsconfig", "", "Path to tsconfig.json to use")
	flag.String("nodeargs", "", "Arguments for the Node process")
	flag.String("packagemanager", "", "Package manager to use for installing dependencies")
	flag.Parse()
	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engineAddress: engineAddress, tracing: *tracing})
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
}
