// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ENSRegistry} from "./ENSRegistry.sol";
import {NameCoder} from "./NameCoder.sol";
import {PublicResolver} from "./PublicResolver.sol";

/// Owns addr.reverse and lets each address claim `<hex address>.addr.reverse` and set its primary
/// name there (EIP-181), as ENS's reverse registrar does.
contract ReverseRegistrar {
    /// namehash("addr.reverse")
    bytes32 public constant ADDR_REVERSE_NODE = 0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;

    ENSRegistry public immutable ens;
    PublicResolver public defaultResolver;
    address private immutable deployer;

    event ReverseClaimed(address indexed addr, bytes32 indexed node);
    event DefaultResolverChanged(address indexed resolver);

    error Unauthorised(address caller);

    constructor(ENSRegistry ens_) {
        ens = ens_;
        deployer = msg.sender;
    }

    /// Set once by the deployer: the resolver is deployed after this registrar (it trusts it).
    function setDefaultResolver(PublicResolver resolver) external {
        if (msg.sender != deployer) revert Unauthorised(msg.sender);
        defaultResolver = resolver;
        emit DefaultResolverChanged(address(resolver));
    }

    /// Makes `name` the caller's primary name; the caller keeps ownership of its reverse node.
    function setName(string calldata name) external returns (bytes32 reverseNode) {
        bytes32 label = keccak256(NameCoder.hexLabel(msg.sender));
        reverseNode = ens.setSubnodeOwner(ADDR_REVERSE_NODE, label, address(this));
        ens.setResolver(reverseNode, address(defaultResolver));
        defaultResolver.setName(reverseNode, name);
        ens.setSubnodeOwner(ADDR_REVERSE_NODE, label, msg.sender);
        emit ReverseClaimed(msg.sender, reverseNode);
    }

    /// The reverse node of an address: namehash("<hex address>.addr.reverse").
    function node(address addr) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(ADDR_REVERSE_NODE, keccak256(NameCoder.hexLabel(addr))));
    }
}
